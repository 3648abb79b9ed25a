#if os(Linux)
import Foundation
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirFFmpeg

/// Opus out of `OpusEncoder`, muxed into Ogg with libavformat and decoded by the ffmpeg tool.
@Suite struct OpusEncoderTests {
    /// Encodes `buffers`, writes the packets into an Ogg file and returns them, the file and the pre-skip.
    static func encodeToOgg(_ settings: AudioEncoderSettings, _ buffers: [PCMBuffer]) async throws
        -> ([EncodedPacket], URL, Int)
    {
        try await onDedicatedThread {
            let encoder = try OpusEncoder(settings: settings)
            var packets: [EncodedPacket] = []
            for buffer in buffers { packets += try encoder.encode(buffer) }
            packets += try encoder.flush()
            let file = try Tools.temporaryDirectory("onair-opus").appendingPathComponent("out.ogg")
            let header = encoder.formatDescription
            guard case .opus(let bytes) = header else { throw ToolError.failed("no OpusHead: \(header)") }
            let writer = try ContainerWriter(
                destination: file.path, format: "ogg",
                tracks: [.audio(.opus, sampleRate: 48_000, channels: settings.channels, extradata: bytes)])
            for packet in packets {
                try writer.write(
                    track: 0, payload: packet.payload, pts: packet.pts, dts: packet.dts,
                    duration: packet.duration, isKeyframe: true)
            }
            try writer.finish()
            return (packets, file, encoder.primingSamples)
        }
    }

    @Test(arguments: [(44_100, PCMSampleFormat.s16, false, 1), (48_000, .f32, true, 2), (16_000, .s32, false, 2)])
    func decodesWithTheRightLengthAndPitch(rate: Int, format: PCMSampleFormat, planar: Bool, channels: Int) async throws {
        let settings = AudioEncoderSettings(sampleRate: 48_000, channels: channels, bitRate: 64_000)
        let start = MediaTime(seconds: 2)
        let buffers = sineBuffers(rate: rate, channels: 1, format: format, planar: planar, seconds: 1.0, chunk: 441, start: start)
        let (packets, file, preSkip) = try await Self.encodeToOgg(settings, buffers)
        let label = "\(rate) Hz \(format) → \(channels) ch"
        // 20 ms packets, contiguous at 48 kHz, the first pre-skip samples before the input.
        #expect(packets.allSatisfy { $0.codec == .opus && $0.isKeyframe }, "\(label)")
        // The last packet's duration is what is left of the input (libopus pads the frame, the duration says how much counts).
        let durations = packets.dropLast().map(\.duration)
        #expect(durations.allSatisfy { $0 == MediaTime(value: 960, timescale: 48_000) }, "\(label): \(Set(durations.map(\.value)))")
        for (a, b) in zip(packets, packets.dropFirst()) { #expect(b.pts.value - a.pts.value == 960, "\(label)") }
        #expect(preSkip > 0 && preSkip < 960, "\(label): pre-skip \(preSkip)")
        #expect(packets.first?.pts == MediaTime(value: 96_000 - Int64(preSkip), timescale: 48_000), "\(label)")
        #expect(abs(packets.count * 960 - preSkip - 48_000) <= 960, "\(label): \(packets.count) packets")
        if case .opus(let header) = packets.first?.formatDescription {
            #expect(header.starts(with: Array("OpusHead".utf8)) && Int(header[9]) == channels, "\(label)")
        } else {
            Issue.record("\(label): the first packet carries no OpusHead")
        }

        let json = try Tools.ffprobeJSON([
            "-count_frames", "-show_entries", "stream=codec_name,sample_rate,channels,nb_read_frames", file.path,
        ])
        let stream = try #require((json["streams"] as? [[String: Any]])?.first, "\(label)")
        #expect(stream["codec_name"] as? String == "opus", "\(label)")
        #expect(stream["sample_rate"] as? String == "48000", "\(label)")
        #expect(stream["channels"] as? Int == channels, "\(label)")
        #expect(Int(stream["nb_read_frames"] as? String ?? "") == packets.count, "\(label)")

        // ffmpeg decodes it without an error, and channel 0 is still a 220 Hz sine: count its zero crossings.
        let decoded = try Tools.run(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-v", "error", "-xerror", "-i", file.path,
                "-ac", "1", "-f", "f32le", "-",
            ])
        #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(label): \(decoded.stderr)")
        let samples = decoded.stdout.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(abs(samples.count - 48_000) <= 960, "\(label): \(samples.count) samples decoded")
        let middle = samples.dropFirst(4_800).prefix(38_400)  // 0.8 s away from the edges
        let crossings = zip(middle, middle.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect(abs(crossings - 176) <= 3, "\(label): \(crossings) rising zero crossings in 0.8 s, 176 for 220 Hz")
        let peak = middle.map(abs).max() ?? 0
        #expect(peak > 0.3 && peak < 0.5, "\(label): peak \(peak), 0.4 sent")
    }

    @Test func rejectsSettingsOpusCannotTake() {
        for settings in [
            AudioEncoderSettings(sampleRate: 44_100, channels: 2, bitRate: 96_000),
            AudioEncoderSettings(sampleRate: 48_000, channels: 6, bitRate: 96_000),
            AudioEncoderSettings(sampleRate: 48_000, channels: 2, bitRate: 1_000),
        ] {
            #expect(throws: EncoderError.self, "\(settings)") { _ = try OpusEncoder(settings: settings) }
        }
    }
}
#endif
