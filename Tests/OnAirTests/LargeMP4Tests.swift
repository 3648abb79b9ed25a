#if os(Linux)
import Foundation
import OnAirCore
import OnAirFFmpeg
import OnAirTestSupport
import Testing

@testable import OnAir

/// An MP4 past 4 GiB (a one-hour segment at 10 Mb/s is 4.5 GB): one pre-encoded keyframe of
/// noise muxed again and again to about 4.2 GiB (no encode in the loop), then ffprobe reads every
/// sample's offset (64-bit, `co64`) and ffmpeg decodes the last samples. Issue 43.
@Suite struct LargeMP4Tests {
    /// Where the file goes: /dev/shm (memory) when it has room, so that 4.2 GiB of writes do not
    /// hold up the disk under the tests beside this one; else the temporary folder.
    static let folder: String = {
        let memory = "/dev/shm"
        return (RetentionSweeper.freeBytes(at: memory) ?? 0) > 6 << 30 ? memory : NSTemporaryDirectory()
    }()

    /// Free bytes where the file goes: it needs 4.2 GiB, and some machines have less.
    static let freeBytes: Int64 = RetentionSweeper.freeBytes(at: folder) ?? 0

    @Test(.timeLimit(.minutes(3)), .enabled(if: freeBytes > 6 << 30, "needs 6 GiB free in /dev/shm or the temporary folder"))
    func samplesPastFourGibibytesAreFoundAndDecode() throws {
        let directory = URL(fileURLWithPath: Self.folder).appendingPathComponent("onair-large-mp4-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A 1920x1080 frame of noise, coded as one large intra frame.
        var random = TestRandom(seed: 4)
        let luma = 1920 * 1080
        let planes: [VideoFrame.Plane] = [(luma, 1920), (luma / 4, 960), (luma / 4, 960)].map { count, row in
            .init(bytes: (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }, bytesPerRow: row)
        }
        let frame = VideoFrame(width: 1920, height: 1080, pixelFormat: .yuv420p, planes: planes, pts: .zero)
        let encoder = try H264Encoder(
            settings: VideoEncoderSettings(
                width: 1920, height: 1080, expectedFrameRate: 30, averageBitRate: 400_000_000, maxKeyFrameInterval: 1,
                allowFrameReordering: false, encoder: "libx264"),
            hardware: .none)
        let packets = try encoder.encode(frame) + encoder.flush()
        let keyframe = try #require(packets.first { $0.isKeyframe })
        try #require(keyframe.payload.count > 500_000, "\(keyframe.payload.count) bytes")
        let target: Int64 = 4_200 << 20
        let count = Int(target / Int64(keyframe.payload.count)) + 1
        let path = directory.appendingPathComponent("large.mp4").path
        let sink = ContainerSink(destination: path, format: "mp4", streams: [.video])
        var sampleSize = 0
        for index in 0..<count {
            var packet = keyframe
            packet.pts = MediaTime(value: Int64(index) * 3000, timescale: 90_000)
            packet.dts = packet.pts
            packet.duration = MediaTime(value: 3000, timescale: 90_000)
            if index > 0 { packet.formatDescription = nil }
            try sink.write(packet)
        }
        try sink.finish()
        let size = try #require((try FileManager.default.attributesOfItem(atPath: path))[.size] as? NSNumber).int64Value
        #expect(size > 1 << 32, "\(size) bytes")
        // Every sample's offset as ffprobe reads it from the index: all there, rising, past 4 GiB.
        let probe = try Tools.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pos", "-of", "csv=p=0", path])
        let offsets = probe.stdoutText.split(whereSeparator: \.isNewline).compactMap { Int64($0) }
        #expect(offsets.count == count, "\(offsets.count) of \(count) samples")
        sampleSize = Int(offsets.count > 1 ? offsets[1] - offsets[0] : 0)
        #expect(sampleSize > 500_000 && zip(offsets, offsets.dropFirst()).allSatisfy { $1 - $0 == Int64(sampleSize) })
        #expect((offsets.last ?? 0) > 1 << 32)
        // The last two samples decode.
        let last = Double(count - 2) / 30
        let decode = try Tools.run(
            "ffmpeg", ["-v", "error", "-ss", String(format: "%.3f", last), "-i", path, "-frames:v", "2", "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
    }
}
#endif
