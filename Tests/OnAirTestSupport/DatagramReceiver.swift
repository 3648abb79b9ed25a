import Foundation

/// A bound `AF_UNIX` datagram socket standing in for systemd's notification socket: `name` is what
/// goes in `NOTIFY_SOCKET` (a path, or `@` and an abstract name).
public final class DatagramReceiver {
    private let descriptor: Int32
    /// The socket's name as `NOTIFY_SOCKET` takes it.
    public let name: String

    /// Binds a fresh socket, abstract or in the temporary directory.
    public init(abstract: Bool) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        let label = "onair-notify-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        name = abstract ? "@" + label : (NSTemporaryDirectory() as NSString).appendingPathComponent(label)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in bytes.enumerated() { path[index] = byte }
        }
        let length = socklen_t((MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2) + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else { throw ToolError.failed("bind \(name): \(String(cString: strerror(errno)))") }
    }

    /// Every datagram waiting now, oldest first.
    public func messages() -> [String] {
        var result: [String] = []
        while let message = receive(flags: Int32(MSG_DONTWAIT)) { result.append(message) }
        return result
    }

    /// The next datagram, waiting up to `timeout` seconds for it (nil when none came).
    public func next(timeout: Double) -> String? {
        var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&pollDescriptor, 1, Int32(timeout * 1000)) == 1 else { return nil }
        return receive(flags: Int32(MSG_DONTWAIT))
    }

    private func receive(flags: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, flags)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    deinit {
        close(descriptor)
        if !name.hasPrefix("@") { unlink(name) }
    }
}
