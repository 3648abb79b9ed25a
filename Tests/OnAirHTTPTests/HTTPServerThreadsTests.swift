#if os(Linux)
import Foundation
import OnAirCore
import OnAirHTTP
import OnAirTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The server is event-driven: held (pending) requests and continuous responses with nothing to
/// send cost no thread — its own threads (libmicrohttpd's `MHD-…`, `onair.http.…`) stay within its
/// handler pool's bound whatever the number of connections — and a source with nothing is not
/// read again until it wakes the server. A slow handler holds only its own request.
@Suite struct HTTPServerThreadsTests {
    /// A stand-in for a viewer's queue: bytes are published to every reader, each woken when it
    /// waits.
    final class Feed: @unchecked Sendable {
        final class Reader: HTTPStreamSource, @unchecked Sendable {
            let feed: Feed
            var queued = 0
            var wake: (@Sendable () -> Void)?
            var reads = 0
            init(_ feed: Feed) { self.feed = feed }

            func read(into buffer: UnsafeMutableRawBufferPointer) -> HTTPStreamRead {
                feed.lock.withLock {
                    reads += 1
                    guard queued > 0 else { return .nothing }
                    let count = min(queued, buffer.count)
                    for index in 0..<count { buffer[index] = UInt8(truncatingIfNeeded: index) }
                    queued -= count
                    return .bytes(count)
                }
            }

            func notify(_ wake: @escaping @Sendable () -> Void) {
                let now = feed.lock.withLock {
                    if queued > 0 { return true }
                    self.wake = wake
                    return false
                }
                if now { wake() }
            }

            func close() {
                feed.lock.withLock {
                    feed.closed += 1
                    wake = nil
                }
            }
        }

        let lock = NSLock()
        var readers: [Reader] = []
        var closed = 0

        func reader() -> Reader {
            let reader = Reader(self)
            lock.withLock { readers.append(reader) }
            return reader
        }

        /// Queues `count` bytes for every reader and wakes those waiting.
        func publish(_ count: Int) {
            let wakes = lock.withLock {
                readers.compactMap { reader -> (@Sendable () -> Void)? in
                    reader.queued += count
                    defer { reader.wake = nil }
                    return reader.wake
                }
            }
            for wake in wakes { wake() }
        }

        var readerCount: Int { lock.withLock { readers.count } }
        var closedCount: Int { lock.withLock { closed } }
        var mostReads: Int { lock.withLock { readers.map(\.reads).max() ?? 0 } }
        var waiting: Int { lock.withLock { readers.filter { $0.wake != nil }.count } }
    }

    /// Threads of this process named by the HTTP server (libmicrohttpd's and its own).
    static func serverThreads() -> Int {
        names().filter { $0.hasPrefix("MHD-") || $0.hasPrefix("onair.http") }.count
    }

    /// The names of this process's threads.
    static func names() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.map { task in
            let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return name.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    static func allThreads() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).count
    }

    /// A TCP connection to the server on loopback that sent `request`; -1 when it cannot.
    static func connect(port: Int, _ request: String) -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(request.utf8)
        guard connected == 0, send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            close(socket)
            return -1
        }
        return socket
    }

    /// Reads from `socket` until `enough` says the bytes so far are enough, the peer closes or 10 s
    /// pass without a byte; the bytes read.
    static func read(_ socket: Int32, until enough: ([UInt8]) -> Bool) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !enough(received) {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        return received
    }

    /// The text of a response read until it contains `word`.
    static func read(_ socket: Int32, untilText word: String) -> String {
        String(decoding: read(socket) { String(decoding: $0, as: UTF8.self).contains(word) }, as: UTF8.self)
    }

    @Test func heldRequestsAndIdleStreamsCostNoThread() throws {
        var configuration = HTTPServerConfiguration(address: try HTTPListenAddress(host: "127.0.0.1", port: 0))
        configuration.connectionLimit = 400
        configuration.handlerThreads = 4
        let feed = Feed()
        let held = Locked<[HTTPPendingResponse]>([])
        let cancelled = Locked(0)
        let server = try HTTPServer(configuration: configuration) { request in
            if request.path == "/live" { return HTTPResponse(status: 200, body: .stream(feed.reader())) }
            let pending = HTTPPendingResponse()
            pending.onCancel { cancelled.withLock { $0 += 1 } }
            held.withLock { $0.append(pending) }
            return HTTPResponse(status: 200, body: .pending(pending))
        }
        defer { server.stop() }
        // Once the server has run (its event loop and housekeeping threads named, a handler thread up).
        let first = Self.connect(port: server.port, "GET /live HTTP/1.1\r\nHost: test\r\n\r\n")
        #expect(
            waitUntil(timeout: 30) { feed.waiting == 1 && Self.names().contains("MHD-single") && Self.names().contains("onair.http.wdog") },
            "\(feed.waiting) \(Self.names().sorted())")
        close(first)
        #expect(waitUntil(timeout: 30) { feed.closedCount == 1 })
        let baseline = Self.serverThreads(), baselineAll = Self.allThreads()

        let holds = (0..<200).map { _ in Self.connect(port: server.port, "GET /wait HTTP/1.1\r\nHost: test\r\n\r\n") }
        defer { for socket in holds where socket >= 0 { close(socket) } }
        #expect(holds.allSatisfy { $0 >= 0 })
        #expect(waitUntil(timeout: 30) { held.withLock { $0.count } == 200 }, "\(held.withLock { $0.count }) requests held")

        let viewers = (0..<64).map { _ in Self.connect(port: server.port, "GET /live HTTP/1.1\r\nHost: test\r\n\r\n") }
        #expect(viewers.allSatisfy { $0 >= 0 })
        #expect(waitUntil(timeout: 30) { feed.readerCount == 65 && feed.waiting == 64 }, "\(feed.waiting) of \(feed.readerCount) waiting")
        for _ in 0..<3 { feed.publish(10_000) }
        for socket in viewers {
            // The response head, then chunked bytes: 30 000 of them (plus chunk framing).
            let bytes = Self.read(socket) { $0.count > 30_000 }
            #expect(bytes.starts(with: Array("HTTP/1.1 200".utf8)) && bytes.count > 30_000, "a viewer got \(bytes.count) bytes")
        }
        #expect(waitUntil(timeout: 30) { feed.waiting == 64 && server.suspendedConnections == 264 })
        let during = Self.serverThreads(), duringAll = Self.allThreads()
        #expect(
            during - baseline <= configuration.handlerThreads,
            "server threads \(baseline) → \(during) (process \(baselineAll) → \(duringAll)) with 200 held requests and 64 streams: \(Self.names().sorted())"
        )
        // Woken three times (and once at the start): a source with nothing is not read again and again.
        #expect(feed.mostReads <= 32, "a source was read \(feed.mostReads) times")

        // Viewers that leave are noticed while their connection is set aside.
        for socket in viewers { close(socket) }
        #expect(waitUntil(timeout: 30) { feed.closedCount == 65 }, "\(feed.closedCount - 1) of 64 streams closed")

        // Held requests get their answers, each on its own connection.
        for (index, pending) in held.withLock({ $0 }).enumerated() { pending.answer(.text(200, "answer \(index)")) }
        for socket in holds.prefix(8) {
            let text = Self.read(socket, untilText: "answer")
            #expect(text.hasPrefix("HTTP/1.1 200") && text.contains("answer"), "\(text)")
        }
        #expect(cancelled.current == 0)
    }

    @Test func aStopCancelsHeldRequestsAndEndsStreams() throws {
        let feed = Feed()
        let held = Locked(0)
        let cancelled = Locked(0)
        var configuration = HTTPServerConfiguration(address: try HTTPListenAddress(host: "127.0.0.1", port: 0))
        configuration.handlerThreads = 2
        let server = try HTTPServer(configuration: configuration) { request in
            if request.path == "/live" { return HTTPResponse(status: 200, body: .stream(feed.reader())) }
            let pending = HTTPPendingResponse()
            pending.onCancel { cancelled.withLock { $0 += 1 } }
            held.withLock { $0 += 1 }
            return HTTPResponse(status: 200, body: .pending(pending))
        }
        let sockets =
            (0..<20).map { _ in Self.connect(port: server.port, "GET /wait HTTP/1.1\r\nHost: test\r\n\r\n") }
            + (0..<10).map { _ in Self.connect(port: server.port, "GET /live HTTP/1.1\r\nHost: test\r\n\r\n") }
        defer { for socket in sockets where socket >= 0 { close(socket) } }
        #expect(waitUntil(timeout: 30) { held.current == 20 && feed.waiting == 10 })
        server.stop()
        #expect(cancelled.current == 20)
        #expect(feed.closedCount == 10)
        #expect(server.suspendedConnections == 0)
    }

    @Test func aSlowHandlerHoldsOnlyItsOwnRequest() throws {
        let release = DispatchSemaphore(value: 0)
        let slowStarted = Locked(false)
        let server = try HTTPServer(configuration: .init(address: try HTTPListenAddress(host: "127.0.0.1", port: 0))) { request in
            if request.path == "/slow" {
                slowStarted.withLock { $0 = true }
                release.wait()
                return .text(200, "slow")
            }
            return .text(200, "fast")
        }
        defer { server.stop() }
        let slow = Self.connect(port: server.port, "GET /slow HTTP/1.1\r\nHost: test\r\n\r\n")
        defer { close(slow) }
        #expect(waitUntil(timeout: 10) { slowStarted.current })
        for _ in 0..<3 {
            let fast = Self.connect(port: server.port, "GET /fast HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
            #expect(Self.read(fast, untilText: "fast").contains("fast"))
            close(fast)
        }
        release.signal()
        #expect(Self.read(slow, untilText: "slow").contains("slow"))
    }

    /// A source that always has bytes, and keeps the abort the server gives it.
    final class Endless: HTTPStreamSource, Sendable {
        let state = Locked((reads: 0, closed: false, abort: (@Sendable () -> Void)?.none))

        func read(into buffer: UnsafeMutableRawBufferPointer) -> HTTPStreamRead {
            state.withLock { $0.reads += 1 }
            buffer.initializeMemory(as: UInt8.self, repeating: 0x47)
            return .bytes(buffer.count)
        }

        func notify(_ wake: @escaping @Sendable () -> Void) { wake() }
        func close() { state.withLock { $0.closed = true } }
        func whenAborted(_ abort: @escaping @Sendable () -> Void) { state.withLock { $0.abort = abort } }
    }

    /// A stream cut while its peer reads nothing (the server is not reading the source then, so no
    /// read can give `.abort`) is closed by the abort the source was given; that abort does nothing
    /// to a later connection.
    @Test func anAbortClosesAStreamWhosePeerStoppedReading() throws {
        let sources = Locked<[Endless]>([])
        let server = try HTTPServer(
            configuration: HTTPServerConfiguration(address: try HTTPListenAddress(host: "127.0.0.1", port: 0))
        ) { _ in
            let source = Endless()
            sources.withLock { $0.append(source) }
            return HTTPResponse(status: 200, body: .stream(source))
        }
        defer { server.stop() }
        let stalled = Self.connect(port: server.port, "GET /live HTTP/1.1\r\nHost: test\r\n\r\n")
        defer { close(stalled) }
        #expect(waitUntil(timeout: 10) { (sources.current.first?.state.current.reads ?? 0) > 4 })
        let first = try #require(sources.current.first)
        let abort = try #require(first.state.current.abort)
        abort()
        // The peer drains what was sent, then sees the end; the server lets the source go.
        var buffer = [UInt8](repeating: 0, count: 65536)
        var last = 1
        var drained = 0
        // (Kernel buffers hold a few MB at most: a stream still flowing after 64 MB was not closed.)
        while last > 0 && drained < 64 << 20 {
            last = recv(stalled, &buffer, buffer.count, 0)
            drained += max(0, last)
        }
        #expect(last == 0 || errno == ECONNRESET, "recv gave \(last) after \(drained) bytes, errno \(errno): never closed")
        #expect(waitUntil(timeout: 10) { first.state.current.closed })
        // A later connection is not touched by the first one's abort.
        let later = Self.connect(port: server.port, "GET /live HTTP/1.1\r\nHost: test\r\n\r\n")
        defer { close(later) }
        #expect(waitUntil(timeout: 10) { sources.current.count == 2 })
        abort()
        #expect(Self.read(later) { $0.count > 1_000_000 }.count > 1_000_000)
        #expect(!(sources.current.last?.state.current.closed ?? true))
    }
}
#endif
