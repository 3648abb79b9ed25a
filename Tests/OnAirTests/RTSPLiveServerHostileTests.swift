#if os(Linux)
import Foundation
import Glibc
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirServing

/// `RTSPLiveServer` against clients that break the rules, in process, each limit of its
/// `Settings` at work: requests over their bounds and malformed ones refused and the connection
/// closed, the request and session timeouts on a clock the test moves, unknown paths and tracks,
/// interleaved data before PLAY, connections past the limit, and a client that sends requests
/// and reads no answer (what it costs the server stays bounded).
@Suite struct RTSPLiveServerHostileTests {
    /// A server of `/live` on a loop whose clock the test moves (`pass`), its stream the first
    /// second of `RTSPLiveServerTests.media` published at once when `media` is set.
    final class Hostile: Sendable {
        let time: Locked<Double>
        let loop: SocketEventLoop
        let hub: ServeHub
        let server: RTSPLiveServer
        let log: Locked<[String]>

        var port: Int { server.port }
        var url: String { "rtsp://127.0.0.1:\(server.port)/live" }

        init(settings: RTSPLiveServer.Settings = .init(), media: Bool = false) throws {
            let time = Locked(1000.0)
            self.time = time
            loop = try SocketEventLoop(name: "rtsp-hostile", now: { time.current })
            let hub = ServeHub(formats: [.elementary])
            let sink = ServeElementarySink(streams: [.video, .audio], hub: hub)
            var settings = settings
            settings.paths = ["/live": sink]
            let log = Locked<[String]>([])
            self.log = log
            server = try RTSPLiveServer(
                settings: settings, hooks: RTSPLiveServerTests.Served.hooks(hub: hub, log: log), loop: loop)
            self.hub = hub
            if media {
                let folder = try Tools.temporaryDirectory("rtsp-hostile")
                defer { try? FileManager.default.removeItem(at: folder) }
                for packet in try RTSPLiveServerTests.media(in: folder, seconds: 1) { try sink.write(packet) }
            }
        }

        /// Moves the clock on by `seconds` and waits until the loop has run every timer due by
        /// then (the server's housekeeping among them): a timer of ours, due last, has run.
        func pass(_ seconds: Double) -> Bool {
            time.withLock { $0 += seconds }
            let ran = Locked(false)
            loop.schedule(after: 0) { ran.withLock { $0 = true } }
            loop.execute {}  // wakes the loop, which would otherwise wait out its last timeout
            return waitUntil(timeout: 5) { ran.current }
        }

        /// The bytes each open connection holds (output not yet written, input not yet read).
        var held: [Int] {
            server.state.withLock { Array($0.connections.values) }.map(\.heldBytes)
        }

        func stop() {
            server.stop()
            loop.stop()
            hub.close()
        }
    }

    /// A raw TCP client on loopback: sends bytes as they are taken, keeps what comes back and
    /// tells when the server has closed the connection. Non-blocking; used by one test thread.
    final class RawClient {
        let fd: Int32
        private(set) var received: [UInt8] = []
        private(set) var closedByServer = false

        /// A connection to `port`, with these socket buffer sizes if given (fixed: no autotuning).
        init(port: Int, receiveBuffer: Int32? = nil, sendBuffer: Int32? = nil) throws {
            fd = try connectLoopback(port: port, receiveBuffer: receiveBuffer, sendBuffer: sendBuffer)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }

        deinit { Glibc.close(fd) }

        /// Sends what the socket takes now of `bytes`: the count, 0 when it is full, -1 on an error.
        func sendSome(_ bytes: ArraySlice<UInt8>) -> Int {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 { return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1 }
            return sent
        }

        /// Sends all of `text` (waiting while the socket is full); false if the connection failed.
        @discardableResult
        func send(_ text: String) -> Bool {
            send(Array(text.utf8))
        }

        /// Sends all of `bytes` (waiting while the socket is full); false if the connection failed.
        @discardableResult
        func send(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            var failed = false
            let done = waitUntil(timeout: 10) {
                while offset < bytes.count {
                    let sent = sendSome(bytes[offset...])
                    if sent < 0 {
                        failed = true
                        return true
                    }
                    if sent == 0 { return false }
                    offset += sent
                }
                return true
            }
            return done && !failed
        }

        /// Reads what has come; notes an end of stream or a reset as the server's close.
        func poll() {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while !closedByServer {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 {
                    received.append(contentsOf: buffer[..<count])
                } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                    closedByServer = true
                } else {
                    return
                }
            }
        }

        /// The next response (status, head, body), taken from what has come, waiting for it.
        func response(timeout: Double = 5) -> (status: Int, head: String, body: [UInt8])? {
            var found: (status: Int, head: String, body: [UInt8])?
            _ = waitUntil(timeout: timeout) {
                poll()
                guard let end = received.firstRange(of: Array("\r\n\r\n".utf8)) else { return closedByServer }
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
                guard received.count >= end.upperBound + length else { return closedByServer }
                let body = Array(received[end.upperBound..<end.upperBound + length])
                received.removeFirst(end.upperBound + length)
                let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                found = (status, head, body)
                return true
            }
            return found
        }

        /// Sends a request and waits for its response.
        func request(_ text: String) -> (status: Int, head: String, body: [UInt8])? {
            guard send(text) else { return nil }
            return response()
        }

        /// Whether the server closes the connection within `timeout` seconds.
        func closes(within timeout: Double = 5) -> Bool {
            waitUntil(timeout: timeout) {
                poll()
                return closedByServer
            }
        }

        /// The value of a response's header field `name`.
        static func field(_ name: String, in head: String) -> String? {
            head.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Requests that break a bound or the rules, and the status each is refused with.
    enum Offence: String, CaseIterable, Sendable {
        case requestLineOverLimit, headerLineOverLimit, headOverLimit, tooManyFields, bodyOverLimit, notARequestLine,
            lettersInCSeq, noCSeq, cseqTooLong, pathNotServed, emptyLineFlood

        /// What the client sends (`url` the served stream's).
        func bytes(url: String) -> String {
            let other = url.replacingOccurrences(of: "/live", with: "/other")
            switch self {
            // No line end: refused at the byte that passes the bound, not at the line's end.
            case .requestLineOverLimit: return "DESCRIBE \(url)/" + String(repeating: "a", count: 5000)
            case .headerLineOverLimit: return "OPTIONS \(url) RTSP/1.0\r\nCSeq: 1\r\nX-Long: " + String(repeating: "b", count: 4100)
            case .headOverLimit:
                return "OPTIONS \(url) RTSP/1.0\r\nCSeq: 1\r\n"
                    + (0..<6).map { "X-Part-\($0): " + String(repeating: "c", count: 3000) + "\r\n" }.joined() + "\r\n"
            case .tooManyFields:
                return "OPTIONS \(url) RTSP/1.0\r\nCSeq: 1\r\n" + (0..<70).map { "X-\($0): d\r\n" }.joined() + "\r\n"
            case .bodyOverLimit: return "SET_PARAMETER \(url) RTSP/1.0\r\nCSeq: 1\r\nContent-Length: 20000\r\n\r\n"
            case .notARequestLine: return "\u{01}\u{02} hello there\r\n\r\n"
            case .lettersInCSeq: return "OPTIONS \(url) RTSP/1.0\r\nCSeq: one\r\n\r\n"
            case .noCSeq: return "OPTIONS \(url) RTSP/1.0\r\nUser-Agent: x\r\n\r\n"
            case .cseqTooLong: return "OPTIONS \(url) RTSP/1.0\r\nCSeq: 12345678901\r\n\r\n"
            case .pathNotServed: return "DESCRIBE \(other) RTSP/1.0\r\nCSeq: 1\r\n\r\n"
            case .emptyLineFlood: return String(repeating: "\r\n", count: 40)
            }
        }

        var status: Int {
            switch self {
            case .requestLineOverLimit, .headerLineOverLimit, .headOverLimit, .tooManyFields, .bodyOverLimit: 413
            case .notARequestLine, .lettersInCSeq, .noCSeq, .cseqTooLong, .emptyLineFlood: 400
            case .pathNotServed: 404
            }
        }
    }

    @Test(arguments: Offence.allCases)
    func aRequestBreakingABoundOrARuleIsRefusedAndItsConnectionClosed(offence: Offence) throws {
        let served = try Hostile()
        defer { served.stop() }
        let client = try RawClient(port: served.port)
        client.send(offence.bytes(url: served.url))
        let answer = client.response()
        #expect(answer?.status == offence.status, "\(offence): \(answer?.head ?? "no answer")")
        #expect(client.closes(), "\(offence): the connection stayed open")
        #expect(waitUntil(timeout: 5) { served.server.connectionCount == 0 })
        // The server serves on.
        let next = try RawClient(port: served.port)
        #expect(next.request("OPTIONS \(served.url) RTSP/1.0\r\nCSeq: 7\r\n\r\n")?.status == 200)
    }

    /// A connection that sends nothing, or only interleaved frames, is closed `requestTimeout`
    /// after it opened; a request trickled byte by byte `requestTimeout` after its first byte
    /// however often bytes come; a client that asked once and then went quiet at `sessionTimeout`.
    @Test func silenceOrATrickleIsClosedAtTheRequestTimeoutAndQuietAtTheSessionTimeout() throws {
        var settings = RTSPLiveServer.Settings()
        settings.requestTimeout = 10
        settings.sessionTimeout = 30
        let served = try Hostile(settings: settings)
        defer { served.stop() }
        let silent = try RawClient(port: served.port)
        let frames = try RawClient(port: served.port)
        let trickle = try RawClient(port: served.port)
        let quiet = try RawClient(port: served.port)
        #expect(waitUntil(timeout: 5) { served.server.connectionCount == 4 })
        #expect(quiet.request("OPTIONS \(served.url) RTSP/1.0\r\nCSeq: 1\r\n\r\n")?.status == 200)
        let request = Array("DESCRIBE \(served.url) RTSP/1.0\r\nCSeq: 1\r\n".utf8)
        var trickled = 0
        // Nine and a half seconds, a byte (and a frame) every half second: all four stay.
        for _ in 0..<19 {
            #expect(frames.send([0x24, 0, 0, 4, 0x80, 0xC9, 0, 1]))
            #expect(trickle.send(Array(request[trickled...trickled])))
            trickled += 1
            #expect(served.pass(0.5))
        }
        #expect(served.server.connectionCount == 4, "\(served.log.current)")
        // The trickle's first byte may have been read half a second late: 1.5 s more is past
        // ten for all three.
        #expect(served.pass(1.5))
        for client in [silent, frames, trickle] { #expect(client.closes(), "\(served.log.current)") }
        #expect(served.server.connectionCount == 1)
        #expect(served.log.current.filter { $0.contains("no request after 10 s") }.count == 2, "\(served.log.current)")
        #expect(served.log.current.contains { $0.contains("a request still incomplete after 10 s") }, "\(served.log.current)")
        // The quiet one asked at 0 s: it goes once 30 s pass without a word.
        #expect(served.pass(18.5))
        #expect(served.server.connectionCount == 1)
        #expect(served.pass(1.5))
        #expect(quiet.closes())
        #expect(served.log.current.contains { $0.contains("nothing from the client for 30 s") }, "\(served.log.current)")
    }

    /// Interleaved data before PLAY (before any request, and on a set-up track) is dropped: the
    /// requests around it are answered and PLAY then sends media. A flood of it is cut.
    @Test func interleavedDataBeforePlayIsDroppedAndAFloodOfItCut() throws {
        let served = try Hostile(media: true)
        defer { served.stop() }
        let client = try RawClient(port: served.port)
        let rtcp: [UInt8] = [0x24, 1, 0, 8, 0x80, 0xC9, 0, 1, 0, 0, 0, 1]
        #expect(client.send(rtcp))
        #expect(client.request("OPTIONS \(served.url) RTSP/1.0\r\nCSeq: 1\r\n\r\n")?.status == 200)
        #expect(client.request("DESCRIBE \(served.url) RTSP/1.0\r\nCSeq: 2\r\n\r\n")?.status == 200)
        let setup = client.request(
            "SETUP \(served.url)/stream=0 RTSP/1.0\r\nCSeq: 3\r\nTransport: RTP/AVP/TCP;unicast;interleaved=0-1\r\n\r\n")
        #expect(setup?.status == 200)
        let session = setup.flatMap { RawClient.field("Session", in: $0.head) }?.prefix { $0 != ";" } ?? ""
        #expect(client.send(rtcp + [0x24, 0, 0, 4, 0x80, 0x60, 0, 1] + rtcp))
        let play = client.request("PLAY \(served.url) RTSP/1.0\r\nCSeq: 4\r\nSession: \(session)\r\n\r\n")
        #expect(play?.status == 200 && RawClient.field("CSeq", in: play?.head ?? "") == "4", "\(play?.head ?? "no answer")")
        #expect(
            waitUntil(timeout: 5) {
                client.poll()
                return client.received.first == 0x24 && client.received.count > 1000
            }, "no media after PLAY")
        #expect(served.hub.statistics().totals.viewers == 1)

        // Over a MiB of frames within a second (the clock does not move) on a fresh connection.
        let flood = try RawClient(port: served.port)
        let frame = [0x24, 1, 0x3F, 0xFC] + [UInt8](repeating: 0x80, count: 0x3FFC)
        var sent = 0
        let cut = waitUntil(timeout: 10) {
            while sent < 8 << 20 {
                let count = flood.sendSome(frame[(sent % frame.count)...])
                if count <= 0 { break }
                sent += count
            }
            flood.poll()
            return flood.closedByServer
        }
        #expect(cut && sent < 8 << 20, "sent \(sent)")
        #expect(served.log.current.contains { $0.contains("interleaved data in a second") }, "\(served.log.current)")
        #expect(served.hub.statistics().totals.viewers == 1)
    }

    /// SETUP of a track or path the server does not have is 404 and the connection goes on;
    /// UDP where the server offers none is 461; PLAY without a session of the connection 454.
    @Test func unknownTracksPathsAndSessionsAreRefusedWhileTheConnectionLives() throws {
        var settings = RTSPLiveServer.Settings()
        settings.allowsUDP = false
        let served = try Hostile(settings: settings, media: true)
        defer { served.stop() }
        let client = try RawClient(port: served.port)
        let other = served.url.replacingOccurrences(of: "/live", with: "/other")
        let tcp = "Transport: RTP/AVP/TCP;unicast;interleaved=0-1\r\n"
        var cseq = 0
        func ask(_ method: String, _ url: String, _ fields: String = "") -> Int {
            cseq += 1
            let answer = client.request("\(method) \(url) RTSP/1.0\r\nCSeq: \(cseq)\r\n\(fields)\r\n")
            #expect(answer.flatMap { RawClient.field("CSeq", in: $0.head) } == "\(cseq)", "\(answer?.head ?? "no answer")")
            return answer?.status ?? 0
        }
        #expect(ask("DESCRIBE", served.url) == 200)
        for track in ["\(served.url)/stream=2", "\(served.url)/stream=99", "\(served.url)/trackID=x", "\(other)/stream=0"] {
            #expect(ask("SETUP", track, tcp) == 404, "\(track)")
        }
        #expect(ask("SETUP", "\(served.url)/stream=0", "Transport: RTP/AVP;unicast;client_port=5000-5001\r\n") == 461)
        #expect(ask("PLAY", served.url) == 454)
        #expect(ask("PLAY", served.url, "Session: 0123456789ABCDEF\r\n") == 454)
        #expect(ask("SETUP", "\(served.url)/stream=0", "Session: 0123456789ABCDEF\r\n" + tcp) == 454)
        #expect(ask("SETUP", "\(served.url)/stream=0", tcp) == 200)
        #expect(!client.closedByServer && served.server.connectionCount == 1)
        #expect(served.hub.statistics().totals.viewers == 0)
    }

    /// Past `connectionLimit` a connection is closed unanswered; a slot freed is taken again.
    @Test func connectionsPastTheLimitAreClosedUntilOneLeaves() throws {
        var settings = RTSPLiveServer.Settings()
        settings.connectionLimit = 2
        let served = try Hostile(settings: settings)
        defer { served.stop() }
        var clients = [try RawClient(port: served.port), try RawClient(port: served.port)]
        for (index, client) in clients.enumerated() {
            #expect(client.request("OPTIONS \(served.url) RTSP/1.0\r\nCSeq: \(index)\r\n\r\n")?.status == 200)
        }
        let third = try RawClient(port: served.port)
        third.send("OPTIONS \(served.url) RTSP/1.0\r\nCSeq: 3\r\n\r\n")
        #expect(third.closes())
        #expect(third.received.isEmpty)
        #expect(served.log.current.contains { $0.contains("refused: 2 connections open") }, "\(served.log.current)")
        clients.removeFirst()
        #expect(waitUntil(timeout: 5) { served.server.connectionCount == 1 })
        let fourth = try RawClient(port: served.port)
        #expect(fourth.request("OPTIONS \(served.url) RTSP/1.0\r\nCSeq: 4\r\n\r\n")?.status == 200)
        #expect(served.server.connectionCount == 2)
    }

    /// A client that sends requests as fast as it can and reads none of the answers: the server
    /// stops reading once the unread answers pass twice `outputLimit`, so what it holds for the
    /// client stays bounded and the client's sends stop; when the client reads, every request it
    /// sent is answered.
    @Test func requestsWhoseAnswersAreNotReadStopBeingReadAndHoldBoundedMemory() throws {
        var settings = RTSPLiveServer.Settings()
        settings.outputLimit = 64 * 1024
        let served = try Hostile(settings: settings, media: true)
        defer { served.stop() }
        let client = try RawClient(port: served.port, receiveBuffer: 64 * 1024, sendBuffer: 16 * 1024)
        let one = Array("DESCRIBE \(served.url) RTSP/1.0\r\nCSeq: 1\r\n\r\n".utf8)
        let batch = Array([[UInt8]](repeating: one, count: 64).joined())
        let ceiling = 4 << 20
        var sent = 0
        var most = 0
        var stuck = 0
        let stopped = waitUntil(timeout: 20) {
            var progressed = false
            while sent < ceiling {
                let count = client.sendSome(batch[(sent % batch.count)...])
                if count <= 0 { break }
                sent += count
                progressed = true
            }
            most = max(most, served.held.max() ?? 0)
            stuck = progressed ? 0 : stuck + 1
            return sent >= ceiling || stuck >= 10
        }
        // Twice the output limit, one read's answers beyond it (16 KiB of DESCRIBEs, each answered
        // with under 1 KiB) and what the reader holds.
        let bound = 2 * settings.outputLimit + 16 * 1024 / one.count * 1024 + 32 * 1024
        #expect(stopped && sent < ceiling, "sent \(sent)")
        #expect(most <= bound, "held \(most) of at most \(bound)")
        #expect(served.server.connectionCount == 1)
        // Reading now, the client gets an answer to every request it sent whole.
        var answers = 0
        var statuses: Set<Int> = []
        let answered = waitUntil(timeout: 30) {
            while let answer = client.response(timeout: 0) {
                answers += 1
                statuses.insert(answer.status)
            }
            return answers == sent / one.count
        }
        #expect(answered && statuses == [200], "\(answers) answers to \(sent / one.count) requests: \(statuses)")
        #expect(waitUntil(timeout: 5) { served.held.allSatisfy { $0 < one.count } }, "held \(served.held)")
    }
}
#endif
