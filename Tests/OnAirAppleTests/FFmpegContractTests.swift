#if canImport(OnAirFFmpeg)
import OnAirCore
import OnAirFFmpeg
import OnAirTestSupport
import Testing

/// The backend contract (`EncoderContract`) on libavcodec, the backend this machine has.
@Suite struct FFmpegContractTests {
    /// libavcodec's H.264 encoder behind the protocol (OnAir gives it the conformance; this test
    /// target does not depend on OnAir).
    final class Video: VideoEncoding {
        let encoder: H264Encoder
        init(_ settings: VideoEncoderSettings) throws { encoder = try H264Encoder(settings: settings) }
        var settings: VideoEncoderSettings { encoder.settings }
        var summary: String { encoder.selection.description }
        func encode(_ frame: VideoFrame, forceKeyFrame: Bool) throws -> [EncodedPacket] {
            try encoder.encode(frame, forceKeyFrame: forceKeyFrame)
        }
        func flush() throws -> [EncodedPacket] { try encoder.flush() }
        func setBitRate(average: Int, dataRateLimits: [DataRateLimit]) throws {
            try encoder.setBitRate(average: average, dataRateLimits: dataRateLimits)
        }
    }

    /// libavcodec's AAC encoder behind the protocol.
    final class Audio: AudioEncoding {
        let encoder: AACEncoder
        init(_ settings: AudioEncoderSettings) throws { encoder = try AACEncoder(settings: settings) }
        var settings: AudioEncoderSettings { encoder.settings }
        func encode(_ buffer: PCMBuffer) throws -> [EncodedPacket] { try encoder.encode(buffer) }
        func flush() throws -> [EncodedPacket] { try encoder.flush() }
    }

    static func software(_ settings: VideoEncoderSettings) throws -> any VideoEncoding {
        var settings = settings
        settings.encoder = "libx264"
        return try Video(settings)
    }

    @Test func keyFrameInterval() throws { try EncoderContract.checkKeyFrameInterval(Self.software) }
    @Test func forcedKeyFrames() throws { try EncoderContract.checkForcedKeyFrames(Self.software) }
    @Test func monotonicTimestamps() throws { try EncoderContract.checkMonotonicTimestamps(Self.software) }
    @Test func bitRateWithinTolerance() throws {
        let ratio = try EncoderContract.checkBitRate(Self.software)
        print("libx264: measured/average bitrate \(ratio)")
    }
    @Test func aacPacketsCoverTheInput() throws { try EncoderContract.checkAACDuration { try Audio($0) } }
    @Test(.enabled(if: toolExists("ffmpeg"), "needs the ffmpeg command to decode"))
    func aacPacketsDecodeToTheInputsLength() throws { try EncoderContract.checkAACDecodes { try Audio($0) } }
}
#endif
