#if os(Linux)
import Foundation
import OnAirCore
import OnAirHTTP
import OnAirServing
import OnAirTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `TLSServerStream` on a loopback socket driven the way an epoll loop drives it (a step, then a
/// poll on the socket for what the step waits for), against `openssl s_client` as the outside
/// client: the handshake, bytes both ways with partial sends, close_notify, a client speaking
/// plain text, and a certificate replaced in the slot while a session runs.
@Suite struct TLSServerStreamTests {
    /// What one try of the test's server did next.
    enum Step {
        /// The work is over (or failed; the caller looks at what it kept).
        case finished
        /// Progress was made: try again at once.
        case again
        /// Nothing now: wait for the socket (poll events) before trying again.
        case waits(Int16)
    }

    /// An `openssl s_client` on 127.0.0.1:`port`: its input a pipe the test writes, its output a
    /// pipe the test reads when it chooses (a full pipe stops the client reading its socket).
    final class Client {
        let process: Process
        let input = Pipe(), output = Pipe()
        /// What the client printed and the test has read.
        private(set) var collected = Data()

        /// Starts the client with `arguments` after `-connect`.
        init(port: Int, _ arguments: [String]) throws {
            process = Tools.process("openssl", ["s_client", "-connect", "127.0.0.1:\(port)"] + arguments)
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            let reading = output.fileHandleForReading.fileDescriptor
            _ = fcntl(reading, F_SETFL, fcntl(reading, F_GETFL) | O_NONBLOCK)
            try process.runUnblocked()
        }

        /// Types `text` into the client (sent once its handshake is over).
        func type(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

        /// Reads up to `limit` bytes of what the client printed, as much as is there now.
        func drain(upTo limit: Int = .max) {
            var buffer = [UInt8](repeating: 0, count: 16_384)
            var taken = 0
            while taken < limit {
                let count = buffer.withUnsafeMutableBytes {
                    read(output.fileHandleForReading.fileDescriptor, $0.baseAddress, min($0.count, limit - taken))
                }
                guard count > 0 else { return }
                collected.append(contentsOf: buffer[..<count])
                taken += count
            }
        }

        /// Everything the client printed so far.
        var printed: Data {
            drain()
            return collected
        }

        /// Whether the client ended by itself within `seconds` (its output read meanwhile); it is
        /// killed otherwise.
        func ended(within seconds: Double) -> Bool {
            let ended = waitUntil(timeout: seconds) {
                drain()
                return !process.isRunning
            }
            if !ended { process.terminate() }
            _ = waitUntil(timeout: 10) { !process.isRunning }
            drain()
            return ended
        }
    }

    /// Runs `step` until it finishes, waiting between tries on `fd` with poll, all within
    /// `timeout` seconds (the deadline helper's); whether it finished.
    static func pump(_ fd: Int32, timeout: Double = 30, _ step: () -> Step) -> Bool {
        waitUntil(timeout: timeout) {
            while true {
                switch step() {
                case .finished: return true
                case .again: continue
                case .waits(let events):
                    var entry = pollfd(fd: fd, events: events, revents: 0)
                    if poll(&entry, 1, 50) <= 0 { return false }
                }
            }
        }
    }

    /// The step that `progress` or `result` asks for.
    static func step(waitingOn result: ByteStreamIOResult) -> Step {
        switch result {
        case .wantsRead: return .waits(Int16(POLLIN))
        case .wantsWrite: return .waits(Int16(POLLOUT))
        case .bytes: return .again
        case .closed, .failed: return .finished
        }
    }

    /// Takes the next connection off `listener` (within 20 s), made non-blocking.
    static func accept(_ listener: LoopbackSocket) throws -> Int32 {
        var entry = pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)
        guard waitUntil(timeout: 20, { poll(&entry, 1, 50) > 0 }) else { throw ToolError.failed("no client came") }
        let fd = Glibc.accept(listener.descriptor, nil, nil)
        guard fd >= 0 else { throw ToolError.failed("accept: \(String(cString: strerror(errno)))") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// Runs the handshake to its end.
    static func handshake(_ stream: some ByteStream) -> ByteStreamProgress {
        var progress = ByteStreamProgress.wantsRead
        _ = pump(stream.fd) {
            progress = stream.handshake()
            switch progress {
            case .wantsRead: return .waits(Int16(POLLIN))
            case .wantsWrite: return .waits(Int16(POLLOUT))
            case .done, .failed: return .finished
            }
        }
        return progress
    }

    /// Receives into a buffer of `size` bytes until `enough` holds for what came, or the stream ends
    /// or fails; what came and the last result.
    static func receive(_ stream: some ByteStream, size: Int = 4096, until enough: (Data) -> Bool) -> (Data, ByteStreamIOResult) {
        var data = Data(), last = ByteStreamIOResult.wantsRead
        var buffer = [UInt8](repeating: 0, count: size)
        _ = pump(stream.fd) {
            last = buffer.withUnsafeMutableBytes { stream.receive(into: $0) }
            if case .bytes(let count) = last {
                data.append(contentsOf: buffer[..<count])
                return enough(data) ? .finished : .again
            }
            if last == .wantsRead, stream.pendingBytes > 0 { return .again }
            return step(waitingOn: last)
        }
        return (data, last)
    }

    /// Sends all of `bytes`: how many were taken, the last result, how many sends waited for the
    /// socket to take more, and what each send offering other bytes right after a wait came to.
    static func send(_ stream: some ByteStream, _ bytes: [UInt8], whileWaiting: () -> Void = {}) -> (
        sent: Int, last: ByteStreamIOResult, waits: Int, otherBytes: [ByteStreamIOResult]
    ) {
        var offset = 0, waits = 0, last = ByteStreamIOResult.bytes(0), otherBytes: [ByteStreamIOResult] = []
        _ = pump(stream.fd, timeout: 60) {
            last = bytes.withUnsafeBytes { stream.send(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            if case .bytes(let count) = last {
                offset += count
                return offset == bytes.count ? .finished : .again
            }
            if last == .wantsWrite {
                waits += 1
                whileWaiting()
                // Against GnuTLS's rule: the stream must refuse these without sending anything.
                let other = [UInt8](repeating: 0x55, count: 100)
                otherBytes.append(other.withUnsafeBytes { stream.send($0) })
            }
            return step(waitingOn: last)
        }
        return (offset, last, waits, otherBytes)
    }

    /// A slot holding a fresh self-signed certificate for 127.0.0.1.
    static func credentials() throws -> HTTPTLSCredentials {
        try HTTPTLSCredentials.selfSigned(addresses: ["127.0.0.1"], names: ["localhost"])
    }

    @Test func handshakeBytesBothWaysAndCloseNotify() throws {
        let slot = try HTTPTLSSlot(try Self.credentials())
        let listener = try LoopbackSocket()
        let client = try Client(port: listener.port, ["-quiet"])
        let fd = try Self.accept(listener)
        defer { Glibc.close(fd) }
        // A small send buffer: with the client's output read slowly, the megabyte below meets a full socket.
        var size: Int32 = 4096
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let stream = try TLSServerStream(fd: fd, slot: slot)
        #expect(Self.handshake(stream) == .done)

        // The client's line, read four bytes at a time: the rest of its record waits in the session.
        let line = "hello from the client\n"
        client.type(line)
        var sawPending = false
        let (received, last) = Self.receive(stream, size: 4) { data in
            sawPending = sawPending || stream.pendingBytes > 0
            return data.count >= line.utf8.count
        }
        #expect(String(decoding: received, as: UTF8.self) == line, "last: \(last)")
        #expect(sawPending)
        #expect(stream.pendingBytes == 0)

        let payload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 11) }
        // The client's output read 16 kB per wait: the client reads its socket no faster than that.
        let (sent, lastSend, waits, otherBytes) = Self.send(stream, payload) { client.drain(upTo: 16_384) }
        #expect(sent == payload.count, "last: \(lastSend)")
        #expect(waits > 0, "the socket never filled")
        #expect(otherBytes.count == waits)
        #expect(otherBytes.allSatisfy { $0 == .failed("TLS send: after wantsWrite the same bytes must be offered again") })

        // Our close_notify, the socket still open: with -quiet (its input's end ignored) s_client
        // ends only at a close_notify. The client's output is read meanwhile, for the socket to take it.
        var said = ByteStreamProgress.wantsWrite
        let ended = waitUntil(timeout: 20) {
            client.drain()
            said = stream.bye()
            return said != .wantsWrite && said != .wantsRead
        }
        #expect(ended && said == .done)
        stream.close()
        #expect(client.ended(within: 20))
        #expect(client.process.terminationStatus == 0)
        #expect(client.printed == Data(payload), "s_client printed \(client.printed.count) bytes")
        var byte: UInt8 = 0
        #expect(withUnsafeMutableBytes(of: &byte) { stream.receive(into: $0) } == .failed("TLS: the stream is closed"))
    }

    @Test func plainStreamWaitsReadsWritesAndEnds() throws {
        var pair: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { for fd in pair { Glibc.close(fd) } }
        for fd in pair { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        let ours = PlainStream(fd: pair[0]), theirs = PlainStream(fd: pair[1])
        #expect(ours.handshake() == .done)
        var byte: UInt8 = 0
        #expect(withUnsafeMutableBytes(of: &byte) { ours.receive(into: $0) } == .wantsRead)
        let words = [UInt8]("OPTIONS * RTSP/1.0\r\n".utf8)
        #expect(words.withUnsafeBytes { theirs.send($0) } == .bytes(words.count))
        #expect(Self.receive(ours) { $0.count >= words.count }.0 == Data(words))
        // Filled until the socket takes no more.
        let block = [UInt8](repeating: 7, count: 65_536)
        var filled = ByteStreamIOResult.bytes(0)
        for _ in 0..<1_000 {
            filled = block.withUnsafeBytes { ours.send($0) }
            if case .bytes = filled { continue }
            break
        }
        #expect(filled == .wantsWrite)
        #expect(theirs.bye() == .done)
        #expect(Self.receive(ours) { _ in false }.1 == .closed)
        #expect(ours.pendingBytes == 0)
    }

    @Test func plainTextClientFails() throws {
        let slot = try HTTPTLSSlot(try Self.credentials())
        let listener = try LoopbackSocket()
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(listener.port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        let request = "OPTIONS rtsp://127.0.0.1/live RTSP/1.0\r\nCSeq: 1\r\n\r\n"
        #expect(request.withCString { Glibc.send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) } == request.utf8.count)
        _ = shutdown(client, Int32(SHUT_WR))
        let fd = try Self.accept(listener)
        defer { Glibc.close(fd) }
        let stream = try TLSServerStream(fd: fd, slot: slot)
        let progress = Self.handshake(stream)
        guard case .failed(let words) = progress else {
            Issue.record("a plain-text client's handshake came to \(progress)")
            return
        }
        #expect(!words.isEmpty)
        stream.close()
        #expect(stream.handshake() == .failed("TLS: the stream is closed"))
    }

    @Test func replacedCertificateLeavesOpenSessionAndServesTheNext() throws {
        let first = try Self.credentials(), second = try Self.credentials()
        var slot: HTTPTLSSlot? = try HTTPTLSSlot(first)
        let listener = try LoopbackSocket()
        // Without -quiet s_client prints the certificate it was shown before what it receives.
        let client = try Client(port: listener.port, [])
        let fd = try Self.accept(listener)
        defer { Glibc.close(fd) }
        let stream = try TLSServerStream(fd: fd, slot: try #require(slot))
        #expect(Self.handshake(stream) == .done)
        client.type("hello before\n")
        #expect(String(decoding: Self.receive(stream) { $0.count >= 13 }.0, as: UTF8.self) == "hello before\n")

        try #require(slot).replace(with: second)
        // The next handshake, by a client of its own on another thread (it returns once it has the certificate).
        let presented = Locked<String?>(nil)
        let port = listener.port
        Thread.detachNewThread { presented.withLock { $0 = (try? TLSFingerprint.presented(port: port)) ?? "failed" } }
        let nextFD = try Self.accept(listener)
        defer { Glibc.close(nextFD) }
        let next = try TLSServerStream(fd: nextFD, slot: try #require(slot))
        #expect(Self.handshake(next) == .done)
        // That client ends at its input's end: its close_notify (or the socket's end) is `.closed`.
        #expect(Self.receive(next) { _ in false }.1 == .closed)
        #expect(waitUntil(timeout: 20) { presented.withLock { $0 != nil } })
        let secondPrint = try second.fingerprint
        #expect(presented.withLock { $0 } == secondPrint)
        next.close()

        // The first session goes on with the first certificate, even with the slot gone.
        slot = nil
        let words = [UInt8]("after the swap\n".utf8)
        #expect(Self.send(stream, words).sent == words.count)
        client.type("still here\n")
        #expect(String(decoding: Self.receive(stream) { $0.count >= 11 }.0, as: UTF8.self) == "still here\n")
        #expect(waitUntil(timeout: 20) { String(decoding: client.printed, as: UTF8.self).contains("after the swap") })
        stream.close()
        #expect(client.ended(within: 20))
        let printed = String(decoding: client.printed, as: UTF8.self)
        let start = try #require(printed.range(of: "-----BEGIN CERTIFICATE-----"))
        let end = try #require(printed.range(of: "-----END CERTIFICATE-----"))
        let shown = try TLSFingerprint.of(pem: String(printed[start.lowerBound..<end.upperBound]) + "\n")
        let firstPrint = try first.fingerprint
        #expect(shown == firstPrint)
    }
}
#endif
