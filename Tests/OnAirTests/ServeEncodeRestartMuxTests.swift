#if os(Linux)
import Foundation
import OnAirFFmpeg
import OnAirTestSupport
import Testing

@testable import OnAir

/// The served containers across an encode restart (a reload's new size): 1 s from a 160x120
/// encoder, then 1 s from a fresh 240x136 one, timestamps going on. MPEG-TS viewers go on over the
/// same stream (the new parameter sets in band); fragmented-MP4 viewers are ended at the change
/// (its init segment cannot change) and a new viewer gets a new init segment of the new size.
/// Judged by ffprobe and ffmpeg.
@Suite struct ServeEncodeRestartMuxTests {
    static func packets() throws -> [EncodedPacket] {
        let video = try SyntheticVideo(width: 160, height: 120, frameRate: 30)
        let frames = SyntheticTestMedia.frames(video, count: 60)
        var packets: [EncodedPacket] = []
        for (part, size) in [(0, (160, 120)), (1, (240, 136))] {
            let encoder = try H264Encoder(
                settings: VideoEncoderSettings(
                    width: size.0, height: size.1, averageBitRate: 200_000, maxKeyFrameInterval: 15,
                    maxKeyFrameIntervalDuration: 0.5, allowFrameReordering: false, encoder: "libx264"),
                hardware: .none)
            for frame in frames[part * 30..<part * 30 + 30] { packets += try encoder.encode(frame) }
            packets += try encoder.flush()
        }
        return packets
    }

    static func sizes(_ bytes: [UInt8], _ name: String, in directory: URL) throws -> (sizes: [String], errors: String) {
        let file = directory.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return try sizes(of: file)
    }

    /// Each video frame's `WIDTH,HEIGHT` as ffprobe decodes `file`, and ffmpeg's decode errors.
    static func sizes(of file: URL) throws -> (sizes: [String], errors: String) {
        let probe = try Tools.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=width,height", "-of", "csv=p=0", file.path])
        let decode = try Tools.run("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-i", file.path, "-f", "null", "-"])
        // A frame with side data gets a trailing field: width and height are the first two.
        let sizes = probe.stdoutText.split(whereSeparator: \.isNewline).map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
        return (sizes, decode.stderr)
    }

    @Test func tsGoesOnInBandAndFragmentedMP4StartsOverWithANewInitSegment() throws {
        let packets = try Self.packets()
        let hub = ServeHub(formats: [.mpegTS, .fragmentedMP4])
        let ts = try ServeMuxSink(format: .mpegTS, streams: [.video], hub: hub)
        let mp4 = try ServeMuxSink(format: .fragmentedMP4, streams: [.video], hub: hub)
        let tsViewer = try hub.openViewer(format: .mpegTS, transport: "http", peer: "ts")
        let mp4Viewer = try hub.openViewer(format: .fragmentedMP4, transport: "http", peer: "mp4")
        var tsBytes: [UInt8] = [], mp4Bytes: [UInt8] = [], lateBytes: [UInt8] = []
        var late: ServeViewer?
        for (index, packet) in packets.enumerated() {
            try ts.write(packet)
            try mp4.write(packet)
            tsBytes += ServeHubTests.drain(tsViewer)
            mp4Bytes += ServeHubTests.drain(mp4Viewer)
            if index == 40 { late = try hub.openViewer(format: .fragmentedMP4, transport: "http", peer: "late") }
            if let late { lateBytes += ServeHubTests.drain(late) }
        }
        try ts.finish()
        try mp4.finish()
        tsBytes += ServeHubTests.drain(tsViewer)
        lateBytes += ServeHubTests.drain(try #require(late))
        #expect(tsViewer.endReason == nil)
        #expect(mp4Viewer.endReason == .streamChanged)
        #expect(mp4Viewer.cutReason?.contains("init segment") == true)

        let directory = try Tools.temporaryDirectory("onair-encode-restart-mux")
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = try Self.sizes(tsBytes, "viewer.ts", in: directory)
        #expect(whole.sizes.filter { $0 == "160,120" }.count == 30 && whole.sizes.filter { $0 == "240,136" }.count == 30, "\(whole.sizes)")
        #expect(whole.errors.isEmpty, "\(whole.errors)")
        let before = try Self.sizes(mp4Bytes, "before.mp4", in: directory)
        #expect(before.sizes.count == 30 && Set(before.sizes) == ["160,120"], "\(before.sizes)")
        #expect(before.errors.isEmpty, "\(before.errors)")
        let after = try Self.sizes(lateBytes, "after.mp4", in: directory)
        #expect(!after.sizes.isEmpty && Set(after.sizes) == ["240,136"], "\(after.sizes)")
        #expect(after.errors.isEmpty, "\(after.errors)")
        #expect(ServeMuxSinkTests.boxTypes(lateBytes).filter { $0 == "moov" }.count == 1)
    }

    /// A segmented recording starts a new segment at the restarted encode's first keyframe (long
    /// before its 60 s are up), so each file holds one picture size.
    @Test func aSegmentedRecordingStartsANewSegmentAtTheChange() throws {
        let directory = try Tools.temporaryDirectory("onair-encode-restart-record")
        defer { try? FileManager.default.removeItem(at: directory) }
        var settings = RecordingSettings(template: try RecordPathTemplate(directory.path + "/%path/%Y-%m-%d_%H-%M-%S-%f"))
        settings.format = .mpegts
        settings.segmentDuration = .seconds(60)
        let recorder = try SegmentedRecorder(settings: settings, streams: [.video], now: { Date(timeIntervalSince1970: 1_700_000_000) })
        for packet in try Self.packets() { try recorder.write(packet) }
        try recorder.finish()
        let folder = directory.appendingPathComponent("live")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ts") }.sorted()
        #expect(files.count == 2, "\(files)")
        guard files.count == 2 else { return }
        let first = try Self.sizes(of: folder.appendingPathComponent(files[0]))
        let second = try Self.sizes(of: folder.appendingPathComponent(files[1]))
        #expect(first.sizes.count == 30 && Set(first.sizes) == ["160,120"], "\(first.sizes)")
        #expect(second.sizes.count == 30 && Set(second.sizes) == ["240,136"], "\(second.sizes)")
        #expect(first.errors.isEmpty && second.errors.isEmpty, "\(first.errors) \(second.errors)")
    }
}
#endif
