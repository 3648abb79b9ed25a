import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 file server for an HLS directory, on the loopback interface only.
///
/// It answers `GET` and `HEAD` for files directly inside `directory` (playlists, segments, init
/// segments) with one response per connection, and 404 for anything else, including any path
/// that leaves the directory. Connections are served one at a time on one dedicated thread.
public final class HLSFileServer: @unchecked Sendable {
    /// Why the server could not start.
    public struct StartError: OnAirError {
        /// What failed, with the system's message.
        public var description: String
    }

    /// The directory served.
    public let directory: String
    /// The TCP port it listens on (the one given, or the one the system picked for 0).
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    /// Listens on 127.0.0.1:`port` (0 picks a free port) and serves `directory` until `stop()`.
    public init(directory: String, port: Int) throws {
        guard (0...65_535).contains(port) else { throw StartError(description: "port \(port) is not 0…65535") }
        self.directory = directory
        let fd = socket(AF_INET, Self.streamType, 0)
        guard fd >= 0 else { throw StartError(description: "socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)  // 127.0.0.1 only
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw StartError(description: "listen on 127.0.0.1:\(port): \(message)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: actual.sin_port))
        listener = fd
        let thread = Thread { [self] in
            serve()
            finished.signal()
        }
        thread.name = "onair.hls.serve"
        thread.start()
    }

    /// Stops accepting connections and waits for the server thread to end.
    public func stop() {
        lock.lock()
        let already = stopped
        stopped = true
        lock.unlock()
        if already { return }
        finished.wait()
        close(listener)
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    /// A client that hangs up must not kill the process with SIGPIPE.
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let streamType = SOCK_STREAM
    private static let noSignal: Int32 = 0
    #endif

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func serve() {
        while !isStopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            respond(to: client)
            close(client)
        }
    }

    /// Reads one request (up to 8 KiB of header) and answers it.
    private func respond(to client: Int32) {
        var request = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 2048)
        while request.count < 8192 {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            request += chunk[0..<count]
            if request.count >= 4, String(decoding: request, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        let line = String(decoding: request, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0] == "GET" || parts[0] == "HEAD" else {
            reply(client, status: "405 Method Not Allowed", type: "text/plain", body: Data("method not allowed\n".utf8))
            return
        }
        let target = String(parts[1].split(separator: "?").first ?? "")
        guard let body = file(for: target) else {
            reply(client, status: "404 Not Found", type: "text/plain", body: Data("not found\n".utf8))
            return
        }
        reply(client, status: "200 OK", type: Self.contentType(target), body: body, headOnly: parts[0] == "HEAD")
    }

    /// The bytes of the file a request path names, or nil when it is not a plain file in `directory`.
    private func file(for target: String) -> Data? {
        let name = target.removingPercentEncoding ?? target
        let components = name.split(separator: "/")
        guard components.count == 1, let only = components.first, !only.hasPrefix(".") else { return nil }
        var isDirectory: ObjCBool = false
        let path = (directory as NSString).appendingPathComponent(String(only))
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return FileManager.default.contents(atPath: path)
    }

    private static func contentType(_ path: String) -> String {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "m3u8": return "application/vnd.apple.mpegurl"
        case "ts": return "video/mp2t"
        case "m4s", "mp4": return "video/mp4"
        default: return "application/octet-stream"
        }
    }

    private func reply(_ client: Int32, status: String, type: String, body: Data, headOnly: Bool = false) {
        var response = Data("HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n".utf8)
        if !headOnly { response.append(body) }
        response.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = send(client, buffer.baseAddress! + offset, buffer.count - offset, Self.noSignal)
                if sent <= 0 { return }  // the client went away; nothing more to send it
                offset += sent
            }
        }
    }
}
