#if os(Linux)
import Foundation
import OnAirCore
import OnAirFFmpeg
import OnAirServing
import OnAirStreaming
import OnAirTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@testable import OnAir
@testable import OnAirHTTP

/// Low-Latency HLS without real time: the playlist model (parts, server control, preload hint,
/// program dates, delta updates, rendition reports, blocking-reload verdicts), the feed's held
/// requests on an injected clock and timer, the server face's answers (held, 400, 503, cache
/// headers, token on every URI), 200 blocking reloads held at once by the HTTP server with no thread
/// each and released by the publish of their part (the timers never run), and the writer fed 3 s of
/// H.264 and AAC encoded as fast as they go.
@Suite("Low-Latency HLS")
struct LowLatencyHLSTests {
    static let start = Date(timeIntervalSince1970: 1_796_000_000)

    static func part(_ segment: Int, _ part: Int) -> String { LowLatencyHLSPlaylist.partName(segment: segment, part: part) }

    /// `segments` finished segments of five 0.2 s parts (1 s each), then `parts` parts of the next.
    static func playlist(segments: Int, parts: Int, window: Int = 0) -> LowLatencyHLSPlaylist {
        var playlist = LowLatencyHLSPlaylist(targetDuration: 1, partTarget: 0.2, windowSize: window)
        for segment in 0...segments {
            add(parts: segment < segments ? 5 : parts, of: segment, to: &playlist)
            if segment < segments { playlist.finishSegment(uri: "segment_\(segment).m4s", duration: 1, next: part(segment + 1, 0)) }
        }
        return playlist
    }

    static func add(parts count: Int, of segment: Int, to playlist: inout LowLatencyHLSPlaylist, map: String = "init.mp4") {
        for _ in 0..<count {
            let from = playlist.current?.parts.count ?? 0
            playlist.append(
                part: .init(uri: part(segment, from), duration: 0.2, independent: from == 0), map: map, discontinuity: map != "init.mp4",
                programDate: start.addingTimeInterval(Double(segment)), next: part(segment, from + 1))
        }
    }

    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test("playlist: parts before their segment, INDEPENDENT, server control, part info, preload hint, program dates")
    func playlistText() {
        let text = Self.playlist(segments: 2, parts: 2).text()
        let lines = Self.lines(text)
        #expect(
            Array(lines.prefix(8)) == [
                "#EXTM3U", "#EXT-X-VERSION:9", "#EXT-X-TARGETDURATION:1",
                "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=6.000,PART-HOLD-BACK=0.600",
                "#EXT-X-PART-INF:PART-TARGET=0.200", "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-INDEPENDENT-SEGMENTS",
                "#EXT-X-MAP:URI=\"init.mp4\"",
            ], "\(text)")
        for segment in 0..<2 {
            let at = lines.firstIndex(of: "segment_\(segment).m4s") ?? -1
            let parts = (0..<5).map { part in lines.firstIndex { $0.contains("URI=\"\(Self.part(segment, part))\"") } ?? Int.max }
            #expect(parts.allSatisfy { $0 < at } && parts == parts.sorted(), "segment \(segment): \(text)")
            #expect(lines[parts[0]] == "#EXT-X-PART:DURATION=0.200,URI=\"\(Self.part(segment, 0))\",INDEPENDENT=YES")
            #expect(!lines[parts[1]].contains("INDEPENDENT"))
        }
        #expect(lines.filter { $0.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") }.count == 3)
        #expect(lines.contains("#EXT-X-PROGRAM-DATE-TIME:" + LowLatencyHLSPlaylist.programDate(Self.start.addingTimeInterval(1))))
        #expect(LowLatencyHLSPlaylist.programDate(Self.start).hasSuffix(".000Z"))
        #expect(lines.last == "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(Self.part(2, 2))\"")
        #expect(lines.filter { $0.hasPrefix("#EXT-X-PART:") }.count == 12)
    }

    @Test("playlist: parts of segments more than three target durations from the end are no longer listed")
    func partsLeave() {
        let text = Self.playlist(segments: 6, parts: 1).text()
        #expect(!text.contains(Self.part(2, 0)) && text.contains(Self.part(3, 0)) && text.contains("segment_0.m4s"), "\(text)")
    }

    @Test("playlist: blocking-reload verdicts: ready, held, too far ahead or malformed is 400")
    func reloadVerdicts() {
        let playlist = Self.playlist(segments: 2, parts: 2)
        #expect(playlist.lastPart.msn == 2 && playlist.lastPart.part == 1)
        #expect(playlist.reload(msn: nil, part: nil) == .ready)
        #expect(playlist.reload(msn: 1, part: nil) == .ready && playlist.reload(msn: 2, part: 1) == .ready)
        #expect(playlist.reload(msn: 2, part: 2) == .hold && playlist.reload(msn: 3, part: nil) == .hold)
        #expect(playlist.reload(msn: 3, part: 0) == .hold && playlist.reload(msn: 4, part: nil) == .hold)
        #expect(playlist.reload(msn: 2, part: 16) == .hold)  // 15 parts ahead: the Advance Part Limit of 0.2 s parts
        for (msn, part) in [(5, nil), (2, 17), (-1, nil), (nil, 1)] as [(Int?, Int?)] {
            guard case .badRequest = playlist.reload(msn: msn, part: part) else {
                Issue.record("\(String(describing: msn)) \(String(describing: part)) is not refused")
                continue
            }
        }
    }

    @Test("playlist: a delta update skips what is older than CAN-SKIP-UNTIL and merges into the full playlist")
    func deltaUpdate() {
        let playlist = Self.playlist(segments: 12, parts: 1)
        let full = Self.lines(playlist.text())
        let delta = Self.lines(playlist.text(skip: true))
        #expect(full.contains("#EXT-X-MEDIA-SEQUENCE:2") && delta.contains("#EXT-X-MEDIA-SEQUENCE:2"))
        let skipped = delta.first { $0.hasPrefix("#EXT-X-SKIP:SKIPPED-SEGMENTS=") }.flatMap { Int($0.split(separator: "=")[1]) }
        #expect(skipped == 4, "\(delta)")
        let segments = { (lines: [String]) in lines.filter { $0.hasPrefix("segment_") } }
        #expect(Array(segments(full).dropFirst(skipped ?? 0)) == segments(delta))
        // What the delta lists after the skip is the full playlist's tail, line for line.
        let tail = delta.drop { !$0.hasPrefix("#EXT-X-SKIP") }.dropFirst().filter { !$0.hasPrefix("#EXT-X-MAP") }
        #expect(Array(full.suffix(tail.count)) == Array(tail), "\(delta)")
        // Enough segments for it: six target durations before the last.
        #expect(playlist.segments.map(\.duration).reduce(0, +) >= playlist.skipUntil)
    }

    @Test("playlist: an encode restart is a discontinuity with a new EXT-X-MAP; URIs located; rendition reports")
    func restartAndReports() {
        var playlist = Self.playlist(segments: 1, parts: 0)
        Self.add(parts: 2, of: 1, to: &playlist, map: "init_1.mp4")
        let other = Self.playlist(segments: 3, parts: 4)
        let text = playlist.text(reports: [.init(uri: "sub.m3u8?token=t%2B", playlist: other)]) { "live/" + $0 + "?token=t%2B" }
        let lines = Self.lines(text)
        let discontinuity = lines.firstIndex(of: "#EXT-X-DISCONTINUITY") ?? -1
        #expect(lines[discontinuity + 1] == "#EXT-X-MAP:URI=\"live/init_1.mp4?token=t%2B\"", "\(text)")
        #expect(lines.last == "#EXT-X-RENDITION-REPORT:URI=\"sub.m3u8?token=t%2B\",LAST-MSN=3,LAST-PART=3")
        for line in lines where line.contains("URI=\"") || !line.hasPrefix("#") {
            #expect(line.contains("?token=t%2B"), "\(line)")
        }
    }

    /// A feed on a hand-moved monotonic clock whose timers run when the test says.
    final class ManualTime: Sendable {
        let now: Locked<Double>
        let timers: Locked<[@Sendable () -> Void]>
        let feed: LowLatencyHLSFeed

        init() {
            let now = Locked(100.0)
            let timers = Locked<[@Sendable () -> Void]>([])
            self.now = now
            self.timers = timers
            feed = LowLatencyHLSFeed(
                monotonic: { now.current }, schedule: { _, action in timers.withLock { $0.append(action) } }, deliver: { $0() })
        }

        /// Moves the clock on and runs every timer set so far (a feed's expiry is idempotent).
        func advance(_ seconds: Double) {
            now.withLock { $0 += seconds }
            for timer in timers.current { timer() }
        }
    }

    @Test("feed: a held wait is answered by the publish that satisfies it, at its deadline with nil, never once cancelled")
    func feed() {
        let time = ManualTime()
        let feed = time.feed
        let answers = Locked<[Int?]>([])
        let wantsPart = { (part: Int) in { @Sendable (playlist: LowLatencyHLSPlaylist) in playlist.contains(msn: 2, part: part) } }
        let record = { @Sendable (playlist: LowLatencyHLSPlaylist?) in answers.withLock { $0.append(playlist?.lastPart.part) } }
        #expect(feed.wait(seconds: 3, until: wantsPart(2), answer: record) != nil)
        feed.publish(Self.playlist(segments: 2, parts: 2))
        #expect(answers.current.isEmpty && feed.held.now == 1)
        feed.publish(Self.playlist(segments: 2, parts: 3))
        #expect(answers.current == [2] && feed.held.now == 0)
        // Already there: answered at once.
        #expect(feed.wait(seconds: 3, until: wantsPart(1), answer: record) == nil && answers.current == [2, 2])
        _ = feed.wait(seconds: 3, until: wantsPart(4), answer: record)
        time.advance(2.9)
        #expect(answers.current.count == 2)
        time.advance(0.2)
        #expect(answers.current == [2, 2, nil] && feed.held.now == 0)
        let id = feed.wait(seconds: 3, until: wantsPart(4), answer: record)
        feed.cancel(id ?? -1)
        feed.publish(Self.playlist(segments: 2, parts: 5))
        time.advance(5)
        #expect(answers.current.count == 3 && feed.held.now == 0 && feed.held.most == 1)
    }

    static func body(_ response: HTTPResponse) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func header(_ response: HTTPResponse, _ name: String) -> String? { response.headers.first { $0.name == name }?.value }

    @Test("server face: held reloads and hinted parts answered on publish, 503 at the deadline, 400, cache headers, token")
    func serverFace() throws {
        let dir = try Tools.temporaryDirectory("llhls-face")
        defer { try? FileManager.default.removeItem(at: dir) }
        let time = ManualTime()
        let feed = time.feed
        let sub = LowLatencyHLSFeed()
        sub.publish(Self.playlist(segments: 1, parts: 1))
        let face = ServeLowLatencyHLS(feeds: ["live": feed, "sub": sub])
        let ask = { (query: [String: String]) in
            face.playlist("live", request: HTTPRequest(method: "GET", path: "/live.m3u8", query: query), query: "?token=a", folder: "")
        }
        #expect(ask([:]).status == 404)  // nothing published yet
        #expect(ask(["_HLS_msn": "1", "_HLS_part": "0"]).status == 404)  // before a playlist only the first part is awaited
        // A player back after a restart asks for the first part: held until a playlist lists it.
        let first = ask(["_HLS_msn": "0", "_HLS_part": "0"])
        guard case .pending(let firstPending) = first.body else {
            Issue.record("not held: \(first.status)")
            return
        }
        #expect(!firstPending.isAnswered)
        feed.publish(Self.playlist(segments: 2, parts: 2))
        let firstAnswer = try #require(firstPending.take())
        #expect(firstAnswer.status == 200 && Self.body(firstAnswer).contains("URI=\"part_2_1.m4s?token=a\""))
        let plain = ask([:])
        #expect(plain.status == 200 && Self.header(plain, "Cache-Control") == "no-store")
        #expect(Self.body(plain).contains("#EXT-X-RENDITION-REPORT:URI=\"sub.m3u8?token=a\",LAST-MSN=1,LAST-PART=0"))
        #expect(Self.body(plain).contains("URI=\"part_2_1.m4s?token=a\""))
        #expect(ask(["_HLS_msn": "9"]).status == 400 && ask(["_HLS_msn": "x"]).status == 400 && ask(["_HLS_part": "1"]).status == 400)
        // A blocking reload for the next part: held until it is published.
        let held = ask(["_HLS_msn": "2", "_HLS_part": "2", "_HLS_skip": "YES"])
        guard case .pending(let pending) = held.body else {
            Issue.record("not held: \(held.status)")
            return
        }
        #expect(!pending.isAnswered)
        feed.publish(Self.playlist(segments: 2, parts: 3))
        let answered = try #require(pending.take())
        #expect(answered.status == 200 && Self.body(answered).contains("part_2_2.m4s?token=a"))
        #expect(Self.header(answered, "Cache-Control") == "public, max-age=3")
        // The preload hint's part: held until the writer stores and publishes it.
        let hinted = try #require(face.file("live", name: "part_2_3.m4s", directory: dir.path))
        guard case .pending(let part) = hinted.body else {
            Issue.record("not held: \(hinted.status)")
            return
        }
        try Data([1, 2, 3]).write(to: dir.appendingPathComponent("part_2_3.m4s"))
        feed.publish(Self.playlist(segments: 2, parts: 4))
        let partAnswer = try #require(part.take())
        #expect(partAnswer.status == 200 && Self.header(partAnswer, "Cache-Control") == "public, max-age=3600, immutable")
        guard case .bytes(let bytes) = partAnswer.body else {
            Issue.record("no bytes")
            return
        }
        #expect(bytes == [1, 2, 3])
        #expect(face.file("live", name: "part_7_0.m4s", directory: dir.path)?.status == 404)
        #expect(face.file("other", name: "part_2_3.m4s", directory: dir.path) == nil)
        // Not coming within three target durations: 503.
        let late = ask(["_HLS_msn": "3", "_HLS_part": "1"])
        guard case .pending(let lateAnswer) = late.body else {
            Issue.record("not held: \(late.status)")
            return
        }
        time.advance(3.1)
        #expect(try #require(lateAnswer.take()).status == 503)
    }

    /// A loopback connection that sent `request` (-1 when it could not).
    static func connect(port: Int, _ request: String) -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let bytes = Array(request.utf8)
        guard connected == 0, send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            close(socket)
            return -1
        }
        return socket
    }

    /// The sockets of `sockets` with bytes to read (or closed) now.
    static func readable(_ sockets: [Int32]) -> Set<Int32> {
        var fds = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&fds, nfds_t(fds.count), 0) > 0 else { return [] }
        return Set(fds.filter { $0.revents != 0 }.map(\.fd))
    }

    /// Reads every socket of `sockets` until its answer is whole (the header's Content-Length
    /// of body after it), or its peer closes, within `timeout` seconds; the answers' texts.
    static func answers(_ sockets: [Int32], timeout: Double) -> [Int32: String] {
        var received = [Int32: [UInt8]]()
        var open = Set(sockets)
        let whole = { (bytes: [UInt8]) -> Bool in
            let text = String(decoding: bytes, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { return false }
            let length = text[..<end.lowerBound].split(separator: "\r\n")
                .first { $0.lowercased().hasPrefix("content-length:") }.flatMap {
                    Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
                }
            return text.utf8.distance(from: end.upperBound, to: text.endIndex) >= (length ?? 0)
        }
        _ = waitUntil(timeout: timeout) {
            var buffer = [UInt8](repeating: 0, count: 65536)
            for socket in readable(Array(open)) {
                let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count > 0 { received[socket, default: []] += buffer[0..<count] }
                if count <= 0 || whole(received[socket] ?? []) { open.remove(socket) }
            }
            return open.isEmpty
        }
        return received.mapValues { String(decoding: $0, as: UTF8.self) }
    }

    /// Threads of this process now.
    static func threads() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).map { task in
            ((try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? "").trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
    }

    @Test("server: 200 blocking reloads held at once take no thread each; each publish answers exactly those it satisfies")
    func manyHeldReloads() throws {
        // Timers that never run unless the test says: only a publish can answer a held request.
        let time = ManualTime()
        let feed = time.feed
        feed.publish(Self.playlist(segments: 2, parts: 2))
        let face = ServeLowLatencyHLS(feeds: ["live": feed])
        var configuration = HTTPServerConfiguration(address: try HTTPListenAddress(port: 0))
        configuration.connectionLimit = 200 + 64  // what `onair serve --max-viewers 200` allows
        configuration.idleTimeout = 30
        let server = try HTTPServer(configuration: configuration) { request in
            face.playlist("live", request: request, query: "", folder: "")
        }
        defer { server.stop() }
        let before = Self.threads()
        // Half wait for part 2.2 (the preload hint's), half for part 2.3 (the one after it).
        let request = { (part: Int) in "GET /live.m3u8?_HLS_msn=2&_HLS_part=\(part) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }
        let first = (0..<100).map { _ in Self.connect(port: server.port, request(2)) }
        let second = (0..<100).map { _ in Self.connect(port: server.port, request(3)) }
        defer { for socket in first + second where socket >= 0 { close(socket) } }
        try #require((first + second).allSatisfy { $0 >= 0 }, "could not connect")
        #expect(
            waitUntil(timeout: 20) { feed.held.now == 200 && server.suspendedConnections == 200 },
            "held \(feed.held.now), suspended \(server.suspendedConnections)")
        let waiting = Self.threads()
        print("200 held blocking reloads: \(before.count) threads before, \(waiting.count) while they wait")
        #expect(waiting.count - before.count <= 10, "threads before: \(before.count), while 200 wait: \(waiting.count): \(waiting)")
        #expect(Self.readable(first + second).isEmpty, "answered before the part was published")
        // Part 2.2 published: its 100 are answered with it, the others still wait.
        feed.publish(Self.playlist(segments: 2, parts: 3))
        let answered = Self.answers(first, timeout: 20)
        #expect(answered.count == 100, "\(answered.count) answered")
        #expect(
            answered.values.allSatisfy { $0.hasPrefix("HTTP/1.1 200") && $0.contains("URI=\"part_2_2.m4s\"") },
            "\(answered.values.first ?? "")")
        #expect(feed.held.now == 100 && Self.readable(second).isEmpty)
        feed.publish(Self.playlist(segments: 2, parts: 4))
        let rest = Self.answers(second, timeout: 20)
        #expect(rest.count == 100 && rest.values.allSatisfy { $0.hasPrefix("HTTP/1.1 200") && $0.contains("URI=\"part_2_3.m4s\"") })
        #expect(feed.held.now == 0 && feed.held.most == 200)
    }

    @Test("writer: H.264 parts of at most 0.2 s, INDEPENDENT on keyframes, byte-identical to their segment; ffmpeg decodes")
    func writer() throws {
        let dir = try Tools.temporaryDirectory("llhls-writer")
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = 90
        let packets = try FragmentedHLSWriterTests.packets(frames: frames, codec: .h264, keyFrameInterval: 30)
        let playlistFile = dir.appendingPathComponent("stream.m3u8")
        let feed = LowLatencyHLSFeed()
        let writer = try FragmentedHLSWriter(
            playlist: playlistFile.path, streams: [.video, .audio], segmentDuration: 1, windowSize: 0, partDuration: 0.2, feed: feed,
            programDate: { Self.start })
        for packet in packets { try writer.write(packet) }
        let live = try #require(feed.playlist)
        #expect(live.segments.count == 2 && live.current != nil, "\(live.text())")
        for (number, segment) in live.segments.enumerated() {
            #expect(segment.uri == "segment_\(number).m4s" && segment.parts.count == 5, "\(segment)")
            #expect(segment.parts.map(\.independent) == [true, false, false, false, false])
            #expect(segment.parts.allSatisfy { $0.duration <= 0.2005 && $0.duration > 0.15 }, "\(segment.parts)")
            #expect(segment.programDate == Self.start.addingTimeInterval(Double(number)))
            let joined = try segment.parts.flatMap { Array(try Data(contentsOf: dir.appendingPathComponent($0.uri))) }
            #expect(joined == Array(try Data(contentsOf: dir.appendingPathComponent("segment_\(number).m4s"))))
        }
        let text = try String(contentsOf: playlistFile, encoding: .utf8)
        #expect(text.contains("#EXT-X-PART:") && text.contains("#EXT-X-PRELOAD-HINT:"), "\(text)")
        try writer.finish()
        let final = try String(contentsOf: playlistFile, encoding: .utf8)
        #expect(final.hasSuffix("#EXT-X-ENDLIST\n") && !final.contains("PRELOAD-HINT"), "\(final)")
        let decode = try Tools.run("ffmpeg", ["-v", "error", "-i", playlistFile.path, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
        let probe = try Tools.ffprobeJSON(["-show_streams", "-select_streams", "v:0", "-count_frames", playlistFile.path])
        let stream = try #require((probe["streams"] as? [[String: Any]])?.first)
        #expect(stream["codec_name"] as? String == "h264" && stream["nb_read_frames"] as? String == "\(frames)", "\(stream)")
    }

    @Test("writer: an encode restart with another size is a discontinuity and a new EXT-X-MAP, its first part independent")
    func writerRestart() throws {
        let dir = try Tools.temporaryDirectory("llhls-restart")
        defer { try? FileManager.default.removeItem(at: dir) }
        let feed = LowLatencyHLSFeed()
        let writer = try FragmentedHLSWriter(
            playlist: dir.appendingPathComponent("stream.m3u8").path, streams: [.video, .audio], segmentDuration: 1, windowSize: 0,
            partDuration: 0.2, feed: feed)
        // 1.5 s of the first encode, then the second's video (another size) from there on while the
        // audio encode goes on, as in a restart.
        let first = try FragmentedHLSWriterTests.packets(frames: 90, codec: .h264, keyFrameInterval: 30)
        let second = try FragmentedHLSWriterTests.packets(frames: 45, codec: .h264, keyFrameInterval: 30, width: 128)
            .filter { $0.mediaType == .video }.map { packet in
                var shifted = packet
                shifted.dts = packet.dts + MediaTime(seconds: 1.5)
                shifted.pts = packet.pts + MediaTime(seconds: 1.5)
                return shifted
            }
        let before = first.filter { $0.dts.seconds < 1.5 }
        let after = (first.filter { $0.mediaType == .audio && $0.dts.seconds >= 1.5 } + second).sorted { $0.dts.seconds < $1.dts.seconds }
        for packet in before + after { try writer.write(packet) }
        let lines = Self.lines(try #require(feed.playlist).text())
        let discontinuity = try #require(lines.firstIndex(of: "#EXT-X-DISCONTINUITY"), "\(lines)")
        #expect(lines[discontinuity + 1] == "#EXT-X-MAP:URI=\"init_1.mp4\"", "\(lines)")
        let firstPart = try #require(lines[discontinuity...].first { $0.hasPrefix("#EXT-X-PART:") })
        #expect(firstPart.hasSuffix(",INDEPENDENT=YES"), "\(firstPart)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("init_1.mp4").path))
    }
}
#endif
