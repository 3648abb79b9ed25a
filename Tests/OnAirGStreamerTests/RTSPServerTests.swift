#if os(Linux)
import Foundation
import OnAirGStreamer
import OnAirServing
import OnAirTestSupport
import Testing

/// The backend alone: an `RTSPServer` whose per-client pipeline its delegate feeds with H.264
/// made by ffmpeg at test time, watched by ffmpeg over TCP and UDP.
@Suite(.serialized) struct RTSPServerTests {
    /// Feeds every client's media with the same access units at 15 fps; refuses clients past `admitting`.
    final class Feeder: RTSPServerDelegate, @unchecked Sendable {
        let units: [[UInt8]]
        let admitting: Int
        private let lock = NSLock()
        private(set) var admitted = 0, refused = 0, ended = 0
        private(set) var transports: [String] = []
        private let group = DispatchGroup()

        init(units: [[UInt8]], admitting: Int) {
            self.units = units
            self.admitting = admitting
        }

        func snapshot() -> (admitted: Int, refused: Int, ended: Int, transports: [String]) {
            lock.lock()
            defer { lock.unlock() }
            return (admitted, refused, ended, transports)
        }

        func rtspServer(admit client: RTSPClientHandle) -> Int {
            lock.lock()
            defer { lock.unlock() }
            guard admitted < admitting else {
                refused += 1
                return 503
            }
            admitted += 1
            return 200
        }

        func rtspServer(configured media: RTSPClientMedia) {
            guard let video = media.video else { return }
            let units = self.units
            group.startThread(named: "test.feeder") {
                try? video.setCaps("video/x-h264,stream-format=(string)byte-stream,alignment=(string)au")
                var index = 0
                let start = Date()
                while index < units.count * 4 {
                    let unit = units[index % units.count]
                    let pts = Int64(index) * 1_000_000_000 / 15
                    let result = unit.withUnsafeBytes { video.push($0, pts: pts, dts: pts, duration: 1_000_000_000 / 15, isKeyframe: true) }
                    switch result {
                    case .accepted: index += 1
                    case .notReady: letTimePass(0.005, "the source takes no more yet")
                    case .ended, .failed: return
                    }
                    let due = start.addingTimeInterval(Double(index) / 15)
                    letTimePass(until: due, "a live source's pace, 15 fps")
                }
                video.end()
            }
        }

        func rtspServer(media identifier: UInt, transport: String) {
            lock.lock()
            transports.append(transport)
            lock.unlock()
        }

        func rtspServer(mediaEnded identifier: UInt) {
            lock.lock()
            ended += 1
            lock.unlock()
        }

        func rtspServer(clientClosed identifier: UInt) {}
    }

    /// Access units of an all-IDR H.264 stream (each begins with its SPS), made by ffmpeg.
    static func accessUnits(in dir: URL) throws -> [[UInt8]] {
        let path = dir.appendingPathComponent("intra.h264").path
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=15", "-t", "2", "-c:v", "libx264", "-g", "1",
            "-x264-params", "repeat-headers=1", "-pix_fmt", "yuv420p", "-f", "h264", path,
        ])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var starts: [Int] = []
        var index = 0
        while index + 4 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 0, bytes[index + 3] == 1, bytes[index + 4] & 0x1F == 7 {
                starts.append(index)
            }
            index += 1
        }
        return zip(starts, starts.dropFirst() + [bytes.count]).map { Array(bytes[$0..<$1]) }
    }

    @Test func eachClientGetsItsOwnFedPipelineOverTCPAndUDPAndRefusalsCarryTheDelegatesCode() throws {
        let dir = try Tools.temporaryDirectory("rtsp-server")
        defer { try? FileManager.default.removeItem(at: dir) }
        let units = try Self.accessUnits(in: dir)
        #expect(units.count >= 25)
        let feeder = Feeder(units: units, admitting: 2)
        var configuration = RTSPServerConfiguration(launch: "( appsrc name=video is-live=true format=time ! rtph264pay name=pay0 pt=96 )")
        configuration.port = 0
        let server = try RTSPServer(configuration: configuration, delegate: feeder)
        defer { server.stop() }
        #expect(server.port > 0)
        let url = "rtsp://127.0.0.1:\(server.port)/live"
        for transport in ["tcp", "udp"] {
            let out = dir.appendingPathComponent("\(transport).ts").path
            let result = try Tools.run(
                "ffmpeg",
                [
                    "-hide_banner", "-nostdin", "-v", "error", "-rtsp_transport", transport, "-i", url,
                    "-t", "2", "-c", "copy", "-y", out,
                ])
            #expect(result.status == 0, "\(result.stderr)")
            let frames = try Tools.run(
                "ffprobe",
                [
                    "-v", "error", "-count_frames", "-select_streams", "v", "-show_entries",
                    "stream=nb_read_frames", "-of", "csv=p=0", out,
                ]
            ).stdoutText
            let count = frames.split(whereSeparator: \.isNewline).first.flatMap { Int($0.filter(\.isNumber)) } ?? 0
            #expect(count >= 20, "\(transport): \(frames)")
        }
        let refused = try Tools.run("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-i", url, "-t", "1", "-f", "null", "-"])
        #expect(refused.status != 0 && refused.stderr.contains("503"), "\(refused.stderr)")
        #expect(waitUntil(timeout: 10) { feeder.snapshot().ended == 2 }, "\(feeder.snapshot())")
        let seen = feeder.snapshot()
        #expect(seen.admitted == 2 && seen.refused == 1 && seen.transports.sorted() == ["tcp", "udp"], "\(seen)")
    }

    /// Credentials through the shim's GstRTSPAuth to `RTSPKeyring` and back, against a raw client
    /// computing Digest with Python's own MD5: a refusal carries Digest with a nonce and Basic
    /// (allowed here); any key in force admits by either; a nonce the server never gave does not;
    /// `setKeys` puts a new list in force at once.
    @Test func credentialsAdmitAnyKeyInForceByDigestOrBasicAndSetKeysReplacesThem() throws {
        let dir = try Tools.temporaryDirectory("rtsp-server-keys")
        defer { try? FileManager.default.removeItem(at: dir) }
        let feeder = Feeder(units: try Self.accessUnits(in: dir), admitting: 100)
        var configuration = RTSPServerConfiguration(launch: "( appsrc name=video is-live=true format=time ! rtph264pay name=pay0 pt=96 )")
        configuration.port = 0
        configuration.keys = RTSPKeys(user: "onair", password: "first", allowBasic: true)
        let server = try RTSPServer(configuration: configuration, delegate: feeder)
        defer { server.stop() }
        let clients = RTSPServerGuardTests.clients
        func statuses(_ passwords: String...) throws -> [String: Any] {
            let output = try Tools.run("python3", [clients, "auth", "\(server.port)"] + passwords).stdoutText
            return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        }
        func by(_ report: [String: Any], _ scheme: String) -> [String: Int] { report[scheme] as? [String: Int] ?? [:] }

        let first = try statuses("first", "second")
        #expect(first["status"] as? Int == 401, "\(first)")
        let challenges = first["challenges"] as? [String] ?? []
        #expect(challenges.count == 2 && challenges.last == "Basic realm=\"onair\"", "\(challenges)")
        #expect(challenges.first?.wholeMatch(of: /Digest realm="onair", nonce="[0-9a-f]{32}"/) != nil, "\(challenges)")
        #expect(by(first, "digest") == ["first": 200, "second": 401] && by(first, "basic") == ["first": 200, "second": 401], "\(first)")
        #expect(by(first, "unknown_nonce") == ["first": 401, "second": 401], "\(first)")

        #expect(server.setKeys([(password: "second", number: 2), (password: "first", number: 1)]))
        let both = try statuses("first", "second", "third")
        #expect(by(both, "digest") == ["first": 200, "second": 200, "third": 401], "\(both)")
        #expect(by(both, "basic") == ["first": 200, "second": 200, "third": 401], "\(both)")

        #expect(server.setKeys([(password: "third", number: 3)]))
        let rotated = try statuses("first", "second", "third")
        #expect(by(rotated, "digest") == ["first": 401, "second": 401, "third": 200], "\(rotated)")
        #expect(by(rotated, "basic") == ["first": 401, "second": 401, "third": 200], "\(rotated)")
    }
}
#endif
