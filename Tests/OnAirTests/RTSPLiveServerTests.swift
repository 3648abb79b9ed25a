#if os(Linux)
import Foundation
import Glibc
import OnAirBitstream
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirServing

/// OnAir's own RTSP server, in process, against players nobody here wrote (ffmpeg), and the
/// promise it was made for: viewers cost no thread each.
@Suite struct RTSPLiveServerTests {
    /// `seconds` of 320x240 H.264 at 30 fps (a keyframe a second) and stereo AAC at 48 kHz, as
    /// encoded packets in presentation order with their times.
    static func media(in folder: URL, seconds: Int, bitRate: String = "300k") throws -> [EncodedPacket] {
        let video = folder.appendingPathComponent("in.h264")
        let audio = folder.appendingPathComponent("in.aac")
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "\(seconds)", "-c:v", "libx264", "-b:v", bitRate, "-g", "30", "-bf",
            "0",
            "-bsf:v", "h264_mp4toannexb", "-f", "h264", video.path,
        ])
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "\(seconds)", "-ac", "2", "-c:a", "aac", "-f", "adts",
            audio.path,
        ])
        var packets: [EncodedPacket] = []
        for (index, unit) in H264AccessUnitSplitter.split(AnnexB.split(try [UInt8](Data(contentsOf: video)))).enumerated() {
            let time = MediaTime(value: Int64(index), timescale: 30)
            packets.append(
                EncodedPacket(
                    mediaType: .video, codec: .h264, data: AnnexB.join(accessUnit: unit.units), pts: time, dts: time,
                    duration: MediaTime(value: 1, timescale: 30), isKeyframe: unit.isIDR, formatDescription: nil))
        }
        let frames = ADTS.parse(try [UInt8](Data(contentsOf: audio))).frames
        let config = try #require(frames.first).header.audioSpecificConfig().serialized()
        for (index, frame) in frames.enumerated() {
            let time = MediaTime(value: Int64(index) * 1024, timescale: 48_000)
            packets.append(
                EncodedPacket(
                    mediaType: .audio, codec: .aac, data: frame.payload, pts: time, dts: time,
                    duration: MediaTime(value: 1024, timescale: 48_000), isKeyframe: true,
                    formatDescription: index == 0 ? .aac(audioSpecificConfig: config) : nil))
        }
        return packets.sorted { $0.pts.seconds < $1.pts.seconds }
    }

    /// A server of `/live` whose stream is `packets` published at their times (from the loop's
    /// own timers, as an encoder would), with the hub's `limits`.
    struct Served {
        let hub: ServeHub
        let server: RTSPLiveServer
        let log: Locked<[String]>
        var url: String { "rtsp://127.0.0.1:\(server.port)/live" }

        init(_ packets: [EncodedPacket], limits: ServeHub.Limits = .init(), settings: RTSPLiveServer.Settings = .init()) throws {
            let hub = ServeHub(formats: [.elementary], limits: limits)
            let sink = ServeElementarySink(streams: [.video, .audio], hub: hub)
            var settings = settings
            settings.paths = ["/live": sink]
            let log = Locked<[String]>([])
            let server = try RTSPLiveServer(settings: settings, hooks: Self.hooks(hub: hub, log: log))
            for packet in packets {
                server.loop.schedule(after: packet.pts.seconds) { try? sink.write(packet) }
            }
            self.hub = hub
            self.server = server
            self.log = log
        }

        func stop() {
            server.stop()
            hub.close()
        }

        /// Hooks admitting everyone, opening viewers in `hub` (503 when it is full) and keeping
        /// the server's lines in `log`.
        static func hooks(hub: ServeHub, log: Locked<[String]>) -> RTSPLiveServer.Hooks {
            .init(
                admit: { _ in 200 },
                play: { _, peer, _, transport throws(RTSPRefusal) in
                    do {
                        return try hub.openViewer(format: .elementary, transport: transport, peer: peer)
                    } catch {
                        throw RTSPRefusal(status: 503)
                    }
                },
                log: { line in log.withLock { $0.append(line) } })
        }
    }

    /// The frames ffmpeg copied from `url` over `transport` for `seconds` of media, by stream type,
    /// and what it said on stderr.
    static func copy(_ url: String, transport: String, seconds: Int, in folder: URL) throws -> (video: Int, audio: Int, stderr: String) {
        let output = folder.appendingPathComponent("copy-\(transport)-\(UUID().uuidString).ts")
        let result = try Tools.run(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-loglevel", "warning", "-rtsp_transport", transport, "-i", url, "-t", "\(seconds)", "-c",
                "copy",
                "-f", "mpegts", output.path,
            ],
            timeout: 60)
        guard result.status == 0 else { throw ToolError.failed("ffmpeg: \(result.stderr)") }
        let probe = try Tools.ffprobeJSON(["-count_frames", "-show_entries", "stream=codec_type,nb_read_frames", output.path])
        var counts: [String: Int] = [:]
        for stream in probe["streams"] as? [[String: Any]] ?? [] {
            if let type = stream["codec_type"] as? String, let frames = (stream["nb_read_frames"] as? String).flatMap(Int.init) {
                counts[type] = frames
            }
        }
        return (counts["video"] ?? 0, counts["audio"] ?? 0, result.stderr)
    }

    @Test(arguments: ["tcp", "udp"])
    func ffmpegCopiesEveryFrameOfSoundAndPicture(transport: String) throws {
        let folder = try Tools.temporaryDirectory("rtsp-live")
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try Served(Self.media(in: folder, seconds: 8))
        defer { served.stop() }
        #expect(
            waitUntil(timeout: 5) {
                served.hub.statistics().totals.served == 0 && RTSPLiveSession.tracks(of: served.server.settings.paths["/live"]!).count == 2
            })
        let copied = try Self.copy(served.url, transport: transport, seconds: 4, in: folder)
        // 4 s at 30 fps from a keyframe, and 46.875 AAC frames a second from PLAY on (sound starts
        // live; the keyframe, up to a second older, starts the picture).
        #expect((118...122).contains(copied.video), "\(copied)")
        #expect((138...192).contains(copied.audio), "\(copied)")
        #expect(!copied.stderr.contains("rror"), "\(copied.stderr)")
        #expect(served.hub.statistics().totals.served == 1)
    }

    /// One client stops reading: its output fills, its queue skips, and at the viewer timeout it
    /// is cut, while seven ffmpeg copies beside it get every frame.
    @Test func aTCPClientThatStopsReadingIsCutWhileSevenOthersGetEveryFrame() throws {
        let folder = try Tools.temporaryDirectory("rtsp-live-stall")
        defer { try? FileManager.default.removeItem(at: folder) }
        var limits = ServeHub.Limits()
        limits.viewerTimeout = .seconds(2)
        limits.viewerQueueBytes = 256 * 1024
        let served = try Served(Self.media(in: folder, seconds: 14, bitRate: "2M"), limits: limits)
        defer { served.stop() }
        #expect(waitUntil(timeout: 5) { RTSPLiveSession.tracks(of: served.server.settings.paths["/live"]!).count == 2 })
        let readers = try SocketEventLoop(name: "raw-rtsp")
        defer { readers.stop() }
        let stalled = try RawRTSPClient(port: served.server.port, readers: readers, reading: false, receiveBuffer: 4096)
        defer { stalled.close() }
        let copies = Locked<[(video: Int, audio: Int, stderr: String)]>([])
        let failures = Locked<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<7 {
            DispatchQueue.global().async(group: group) {
                do {
                    let copied = try Self.copy(served.url, transport: "tcp", seconds: 8, in: folder)
                    copies.withLock { $0.append(copied) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        group.wait()
        #expect(failures.current.isEmpty, "\(failures.current)")
        for copied in copies.current {
            #expect((238...242).contains(copied.video), "\(copied)")
            #expect((326...380).contains(copied.audio), "\(copied)")
            #expect(!copied.stderr.contains("rror"), "\(copied.stderr)")
        }
        #expect(served.hub.statistics().totals.cutTooSlow == 1, "\(served.log.current)")
    }

    /// Track URLs are made from the request's URL without its query (`onair play URL?tcp`), and a
    /// SETUP names its track by `stream=N` (ours) or `trackID=N`.
    @Test func trackURLsLeaveTheQueryOutAndSetupFindsTheirTrack() throws {
        #expect(RTSPLiveConnection.base(of: "rtsp://127.0.0.1:8554/live?tcp") == "rtsp://127.0.0.1:8554/live/")
        #expect(RTSPLiveConnection.base(of: "rtsp://127.0.0.1:8554/live/") == "rtsp://127.0.0.1:8554/live/")
        let hub = ServeHub(formats: [.elementary])
        let paths = ["/live": ServeElementarySink(streams: [.video, .audio], hub: hub)]
        #expect(RTSPLiveSession.track(in: "/live/stream=1", paths: paths)! == ("/live", 1))
        #expect(RTSPLiveSession.track(in: "/live/trackID=0", paths: paths)! == ("/live", 0))
        #expect(RTSPLiveSession.track(in: "/live", paths: paths)! == ("/live", 0))
        #expect(RTSPLiveSession.track(in: "/other/stream=0", paths: paths) == nil)
        #expect(RTSPLiveSession.track(in: "/live/stream=99", paths: paths) == nil)
    }

    /// Threads of this process (the test runner's, the server's among them).
    static func threads() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    @Test func thirtyTwoTCPViewersAddNoThread() throws {
        let folder = try Tools.temporaryDirectory("rtsp-live-threads")
        defer { try? FileManager.default.removeItem(at: folder) }
        var limits = ServeHub.Limits()
        limits.maxViewers = 64
        let served = try Served(Self.media(in: folder, seconds: 12), limits: limits)
        defer { served.stop() }
        #expect(waitUntil(timeout: 5) { RTSPLiveSession.tracks(of: served.server.settings.paths["/live"]!).count == 2 })
        let readers = try SocketEventLoop(name: "raw-rtsp")
        defer { readers.stop() }
        let one = try RawRTSPClient(port: served.server.port, readers: readers)
        #expect(waitUntil(timeout: 5) { one.received > 10_000 })
        let before = Self.threads()
        var clients = [one]
        for _ in 1..<32 { clients.append(try RawRTSPClient(port: served.server.port, readers: readers)) }
        #expect(waitUntil(timeout: 10) { clients.allSatisfy { $0.received > 10_000 } }, "\(clients.map(\.received))")
        let after = Self.threads()
        #expect(after - before <= 4, "threads with 1 viewer: \(before), with 32: \(after)")
        #expect(served.hub.statistics().totals.viewers == 32)
        for client in clients { client.close() }
        #expect(waitUntil(timeout: 5) { served.hub.statistics().totals.viewers == 0 })
    }
}

/// A client that speaks just enough RTSP to play `/live` over TCP, then reads the interleaved
/// media through `readers` (one thread for every client, so that clients add no thread to this
/// process), counting the bytes, or stops reading when told.
final class RawRTSPClient: Sendable {
    let fd: Int32
    private let readers: SocketEventLoop
    private let state = Locked(0)

    var received: Int { state.current }

    init(port: Int, readers: SocketEventLoop, reading: Bool = true, receiveBuffer: Int32? = nil) throws {
        self.readers = readers
        fd = try connectLoopback(port: port, receiveBuffer: receiveBuffer)
        let url = "rtsp://127.0.0.1:\(port)/live"
        _ = try request("DESCRIBE \(url) RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n\r\n")
        let setup = try request("SETUP \(url)/stream=0 RTSP/1.0\r\nCSeq: 2\r\nTransport: RTP/AVP/TCP;unicast;interleaved=0-1\r\n\r\n")
        guard let line = setup.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("session:") }) else {
            throw POSIXError(.EPROTO)
        }
        let session = line.dropFirst(8).trimmingCharacters(in: .whitespaces).prefix { $0 != ";" }
        _ = try request(
            "SETUP \(url)/stream=1 RTSP/1.0\r\nCSeq: 3\r\nSession: \(session)\r\nTransport: RTP/AVP/TCP;unicast;interleaved=2-3\r\n\r\n")
        try send("PLAY \(url) RTSP/1.0\r\nCSeq: 4\r\nSession: \(session)\r\nRange: npt=now-\r\n\r\n")
        guard reading else { return }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let descriptor = fd
        try readers.register(descriptor, for: .readable) { [state] _ in
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                guard count > 0 else {
                    if count == 0 { readers.unregister(descriptor) }
                    return
                }
                state.withLock { $0 += count }
            }
        }
    }

    private func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw POSIXError(.EPIPE) }
    }

    /// Sends a request and reads its response (headers and body, by Content-Length).
    private func request(_ text: String) throws -> String {
        try send(text)
        var response: [UInt8] = []
        var byte: UInt8 = 0
        while !response.ends(with: Array("\r\n\r\n".utf8)) {
            guard recv(fd, &byte, 1, 0) == 1 else { throw POSIXError(.ECONNRESET) }
            response.append(byte)
        }
        let head = String(decoding: response, as: UTF8.self)
        if let line = head.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
            let length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)), length > 0
        {
            var body = [UInt8](repeating: 0, count: length)
            guard recv(fd, &body, length, Int32(MSG_WAITALL)) == length else { throw POSIXError(.ECONNRESET) }
        }
        guard head.hasPrefix("RTSP/1.0 200") else { throw POSIXError(.EPROTO) }
        return head
    }

    func close() {
        readers.unregister(fd)
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
#endif
