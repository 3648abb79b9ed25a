#if os(Linux)
import Foundation
import OnAirCore

/// systemd's notification protocol, spoken directly (no libsystemd): each message is one datagram
/// of `KEY=VALUE` lines sent to the `AF_UNIX` socket named by `NOTIFY_SOCKET` (a path, or an
/// abstract name written with a leading `@`). `WATCHDOG_USEC` (and `WATCHDOG_PID`, when it names
/// another process, which then owns the watchdog) give the watchdog's interval.
package final class SystemdNotifier: Sendable {
    /// The watchdog interval in seconds (nil: no watchdog for this process).
    package let watchdogInterval: Double?
    private let descriptor: Int32
    private let address: sockaddr_un
    private let addressLength: socklen_t

    /// A notifier for the socket in `environment` (`NOTIFY_SOCKET`), or nil when there is none or it is unusable.
    package init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let name = environment["NOTIFY_SOCKET"], !name.isEmpty else { return nil }
        var bytes = Array(name.utf8)
        var address = sockaddr_un()
        guard bytes.first == UInt8(ascii: "/") || bytes.first == UInt8(ascii: "@") else { return nil }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return nil }
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in bytes.enumerated() { path[index] = byte }
        }
        self.address = address
        let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        // An abstract name is exactly its bytes (no terminating NUL); a path may carry one.
        addressLength = socklen_t(offset + bytes.count + (abstract ? 0 : 1))
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var interval: Double?
        if let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0 {
            let pid = environment["WATCHDOG_PID"].flatMap { Int32($0) }
            if pid == nil || pid == getpid() { interval = Double(microseconds) / 1_000_000 }
        }
        watchdogInterval = interval
    }

    deinit { close(descriptor) }

    /// Sends one message (`READY=1`, `WATCHDOG=1`, `STATUS=…` lines); false when the socket refused it.
    /// (Each message is one datagram: sends from several threads need no lock.)
    @discardableResult
    package func send(_ message: String) -> Bool {
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, addressLength)
            }
        }
        return sent == bytes.count
    }
}

/// Feeds systemd's watchdog from the frame path: each encoded packet may send `WATCHDOG=1`, at
/// most every quarter interval (so one arrives at least every half interval while frames flow),
/// and none when frames stop, so a stuck capture or encoder gets the service restarted. Also
/// sends `STATUS=` (viewers, fps) at most once a second from the same path.
package final class ServeWatchdog: Sendable {
    private let notifier: SystemdNotifier
    private let interval: Double?
    private let clock: @Sendable () -> Double
    private let status: @Sendable () -> String
    /// When the last ping and the last status went.
    private let last = Locked((ping: -Double.infinity, status: -Double.infinity))

    /// A watchdog sending through `notifier` every `interval` / 4 at most (nil: status only).
    package init(
        notifier: SystemdNotifier, interval: Double?, clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime },
        status: @escaping @Sendable () -> String
    ) {
        self.notifier = notifier
        self.interval = interval
        self.clock = clock
        self.status = status
    }

    /// A frame passed: pings when a quarter interval has gone since the last ping; sends the status once a second.
    package func framePassed() {
        let now = clock()
        let interval = self.interval
        let (ping, sendStatus) = last.withLock { last in
            let ping = interval.map { now - last.ping >= $0 / 4 } ?? false
            if ping { last.ping = now }
            let sendStatus = now - last.status >= 1
            if sendStatus { last.status = now }
            return (ping, sendStatus)
        }
        if ping { notifier.send("WATCHDOG=1") }
        if sendStatus { notifier.send("STATUS=" + status()) }
    }
}
#endif
