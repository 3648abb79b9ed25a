#if os(Linux)
import Foundation
import OnAirFFmpeg
import OnAirTestSupport
import Testing

@testable import OnAir

/// The served fMP4 stream across muxer replacements (which keep libavformat's per-fragment index
/// from growing for as long as the serve runs): one init segment, every frame, times that go on
/// without a step, and clean decoding, judged by ffprobe and ffmpeg.
@Suite struct ServeMuxSinkTests {
    static let frameCount = 150

    /// 5 s of synthetic 160x120 video (a keyframe every 15 frames) and stereo AAC, in time order.
    static func packets() throws -> [EncodedPacket] {
        let video = try SyntheticVideo(width: 160, height: 120, frameRate: 30)
        let encoder = try H264Encoder(
            settings: VideoEncoderSettings(
                width: 160, height: 120, averageBitRate: 200_000, maxKeyFrameInterval: 15,
                maxKeyFrameIntervalDuration: 0.5, encoder: "libx264"),
            hardware: .none)
        var packets: [EncodedPacket] = []
        for frame in SyntheticTestMedia.frames(video, count: frameCount) { packets += try encoder.encode(frame) }
        packets += try encoder.flush()
        let audio = try SyntheticAudio(sampleRate: 48_000, channels: 2)
        let aac = try AACEncoder(settings: AudioEncoderSettings(sampleRate: 48_000, channels: 2))
        for start in stride(from: Int64(0), to: 48_000 * 5, by: 1024) {
            packets += try aac.encode(audio.samples(startingAt: start, count: 1024))
        }
        packets += try aac.flush()
        return packets.enumerated().sorted { ($0.element.dts.seconds, $0.offset) < ($1.element.dts.seconds, $1.offset) }
            .map(\.element)
    }

    /// The top-level box types of an MP4 byte stream (bounds-checked; stops at a truncated box).
    static func boxTypes(_ bytes: [UInt8]) -> [String] {
        var types: [String] = [], offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8, offset + size <= bytes.count else { break }
            types.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
            offset += size
        }
        return types
    }

    /// Each stream's packet decode times, as ffprobe reads `file`.
    static func decodeTimes(_ file: URL) throws -> [String: [Int]] {
        let probe = try Tools.ffprobeJSON([
            "-show_entries", "packet=codec_type,dts", file.path,
        ])
        var times: [String: [Int]] = [:]
        for packet in probe["packets"] as? [[String: Any]] ?? [] {
            guard let type = packet["codec_type"] as? String, let dts = packet["dts"] as? Int else { continue }
            times[type, default: []].append(dts)
        }
        return times
    }

    @Test func fragmentsFromReplacedMuxersAreOneStream() throws {
        let packets = try Self.packets()
        let hub = ServeHub(formats: [.fragmentedMP4])
        let sink = try ServeMuxSink(format: .fragmentedMP4, streams: [.video, .audio], hub: hub, fragmentsPerMuxer: 20)
        let fromStart = try hub.openViewer(format: .fragmentedMP4, transport: "http", peer: "first")
        var late: ServeViewer?
        var bytes: [UInt8] = []
        for (index, packet) in packets.enumerated() {
            try sink.write(packet)
            bytes += ServeHubTests.drain(fromStart)  // a viewer that keeps up: its queue never fills
            if index == packets.count / 2 {
                late = try hub.openViewer(format: .fragmentedMP4, transport: "http", peer: "late")
            }
        }
        try sink.finish()
        bytes += ServeHubTests.drain(fromStart)
        let lateBytes = ServeHubTests.drain(try #require(late))
        // 150 frames, 20 fragments per muxer, a keyframe every 15: new muxers at frames 30, 60, 90, 120.
        #expect(sink.muxersReplaced == 4)
        let directory = try Tools.temporaryDirectory("onair-serve-mux")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, stream) in [("first", bytes), ("late", lateBytes)] {
            let types = Self.boxTypes(stream)
            #expect(types.prefix(2) == ["ftyp", "moov"] && types.filter { $0 == "moov" }.count == 1, "\(name)")
            let file = directory.appendingPathComponent("\(name).mp4")
            try Data(stream).write(to: file)
            let decode = try Tools.run("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-i", file.path, "-f", "null", "-"])
            #expect(decode.status == 0 && decode.stderr.isEmpty, "\(name): \(decode.stderr)")
            let times = try Self.decodeTimes(file)
            let video = times["video"] ?? [], audio = times["audio"] ?? []
            // Every step between packets is one frame (90 kHz / 30) or one AAC frame (1024 at 48 kHz).
            #expect(Set(zip(video, video.dropFirst()).map { $1 - $0 }) == [3000], "\(name) video steps")
            #expect(Set(zip(audio, audio.dropFirst()).map { $1 - $0 }) == [1024], "\(name) audio steps")
            if name == "first" {
                #expect(video.count == Self.frameCount && video.first == 0)
            } else {
                #expect(video.count >= 30 && video.count < Self.frameCount, "joined mid-stream: \(video.count)")
            }
        }
    }
}
#endif
