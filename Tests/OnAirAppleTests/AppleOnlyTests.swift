// Apple-only tests: run by scripts/apple-check.sh on a Mac; compiled to nothing elsewhere.
#if canImport(VideoToolbox) && canImport(AudioToolbox)
import Foundation
import OnAirApple
import OnAirBitstream
import OnAirCore
import OnAirLive
import OnAirTestSupport
import Testing

/// VideoToolbox and AudioToolbox through OnAir's own parsers, and the backend contract on them.
@Suite struct AppleOnlyTests {
    static func videoToolbox(_ settings: VideoEncoderSettings) throws -> any VideoEncoding {
        try VideoToolboxH264Encoder(settings: settings, requireHardware: false)
    }

    /// VT encode → OnAir's Annex-B parser (and SPS reader) → VT decode: every frame comes back at its size.
    @Test func encodeParseDecodeRoundTrip() throws {
        let settings = VideoEncoderSettings(width: 320, height: 240, averageBitRate: 500_000, maxKeyFrameInterval: 15)
        let packets = try EncoderContract.encode(try Self.videoToolbox(settings), count: 30)
        #expect(packets.count == 30)
        for packet in packets {
            let units = AnnexB.split(packet.data)
            #expect(units.contains { $0.type.isVCL })
            if packet.isKeyframe {
                let sps = try H264SPS(try #require(units.first { $0.type == .sps }))
                #expect(sps.width == 320 && sps.height == 240)
            }
        }
        final class Count: @unchecked Sendable {
            let lock = NSLock()
            var frames: [VideoFrame] = []
        }
        let count = Count()
        let decoder = VideoToolboxH264Decoder { frame in
            count.lock.lock()
            count.frames.append(frame)
            count.lock.unlock()
        }
        for packet in packets { try decoder.decode(packet) }
        decoder.flush()
        #expect(count.frames.count == 30)
        #expect(count.frames.allSatisfy { $0.width == 320 && $0.height == 240 && $0.pixelFormat == .nv12 })
    }

    /// Every property of every design in CompressionPropertyPlanTests is accepted by a real session.
    @Test(arguments: CompressionPropertyPlanTests.designs.map(\.name))
    func everyPlannedPropertyIsAccepted(_ name: String) throws {
        let design = try #require(CompressionPropertyPlanTests.designs.first { $0.name == name })
        let encoder = try Self.videoToolbox(design.settings)
        let source = try SyntheticVideo(width: design.settings.width, height: design.settings.height, frameRate: 25)
        // The session opens (and every planned property is set, or the encode throws) at the first frame.
        _ = try encoder.encode(source.frame(index: 0, captureTime: .zero), forceKeyFrame: false)
        _ = try encoder.flush()
    }

    /// AudioToolbox AAC → the portable ADTS writer → OnAir's ADTS parser: every packet comes back.
    @Test func aacThroughADTSAndTheParser() throws {
        let encoder = try AudioToolboxAACEncoder(settings: AudioEncoderSettings(sampleRate: 48_000, channels: 2))
        let audio = try SyntheticAudio(sampleRate: 48_000, channels: 2)
        var packets = try encoder.encode(audio.samples(startingAt: 0, count: 48_000))
        packets += try encoder.flush()
        let config = try AudioSpecificConfig(parsing: try #require(packets.first?.formatDescription).audioSpecificConfig)
        let stream = ADTS.parse(try packets.flatMap { try ADTS.wrap($0.data, config: config) })
        #expect(stream.frames.count == packets.count)
        #expect(packets.count >= 47)
    }

    @Test func contractKeyFrameInterval() throws { try EncoderContract.checkKeyFrameInterval(Self.videoToolbox) }
    @Test func contractForcedKeyFrames() throws { try EncoderContract.checkForcedKeyFrames(Self.videoToolbox) }
    @Test func contractMonotonicTimestamps() throws { try EncoderContract.checkMonotonicTimestamps(Self.videoToolbox) }
    @Test func contractBitRate() throws { _ = try EncoderContract.checkBitRate(Self.videoToolbox) }
    @Test func contractAACDuration() throws { try EncoderContract.checkAACDuration { try AudioToolboxAACEncoder(settings: $0) } }
    @Test(.enabled(if: toolExists("ffmpeg"), "needs the ffmpeg command to decode"))
    func contractAACDecodes() throws { try EncoderContract.checkAACDecodes { try AudioToolboxAACEncoder(settings: $0) } }
}
#endif
