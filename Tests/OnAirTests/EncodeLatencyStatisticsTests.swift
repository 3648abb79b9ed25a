import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// A live session's per-frame encode latency since the start: median, 99th percentile and the
/// keyframes' median, in the statistics and their JSON lines.
@Suite struct EncodeLatencyStatisticsTests {
    /// Takes at least `predicted` per frame, `key` for every `interval`-th frame (a keyframe).
    final class TimedEncoder: VideoEncoding {
        let settings: VideoEncoderSettings
        let summary = "timed"
        let predicted: Double, key: Double, interval: Int
        private var index = 0

        init(settings: VideoEncoderSettings, predicted: Double, key: Double, interval: Int) {
            self.settings = settings
            self.predicted = predicted
            self.key = key
            self.interval = interval
        }

        func encode(_ frame: VideoFrame, forceKeyFrame: Bool) throws -> [EncodedPacket] {
            let isKey = index % interval == 0
            index += 1
            letTimePass(isKey ? key : predicted, "a stand-in encoder's work")
            return [
                EncodedPacket(
                    mediaType: .video, codec: .h264, data: [0, 0, 0, 1, isKey ? 0x65 : 0x41], pts: frame.pts,
                    dts: frame.pts, duration: MediaTime(value: 1, timescale: 1000), isKeyframe: isKey,
                    formatDescription: nil)
            ]
        }
        func flush() throws -> [EncodedPacket] { [] }
        func setBitRate(average: Int, dataRateLimits: [DataRateLimit]) throws {}
    }

    final class CountingSink: PacketSink, @unchecked Sendable {
        let destination = "count"
        private let lock = NSLock()
        private(set) var written = 0
        func write(_ packet: EncodedPacket) throws { lock.withLock { written += 1 } }
        func finish() throws {}
    }

    @Test func percentilesSeparateKeyframesFromPredictedFrames() throws {
        let frames = 100
        let pool = VideoFramePool(width: 64, height: 48, pixelFormat: .yuv420p)
        let settings = VideoEncoderSettings(width: 64, height: 48)
        var configuration = LiveSession.Configuration(video: settings, audio: nil)
        configuration.dropLateVideo = false
        let sink = CountingSink()
        // Every 10th frame a keyframe of 30 ms, the others 1 ms: 10 % keyframes, so the 99th
        // percentile is a keyframe's time and the median a predicted frame's.
        let encoder = TimedEncoder(settings: settings, predicted: 0.001, key: 0.030, interval: 10)
        let session = try LiveSession(
            configuration: configuration,
            sources: [DataPlaneTests.PooledSource(pool: pool, count: frames)],
            sinks: [sink], videoEncoder: encoder, audioEncoder: nil)
        #expect(session.statistics().encodeLatencyP50Ms == 0, "no frame encoded yet")
        try session.start()
        #expect(session.waitForSources(timeout: 60))
        try session.stop()
        #expect(sink.written == frames)

        let stats = session.statistics()
        // Sleeps last at least as long as asked; a median frame that took a keyframe's 30 ms would
        // mean the keyframes were not told apart.
        #expect(stats.keyFrameEncodeLatencyMs >= 30, "keyframes p50 \(stats.keyFrameEncodeLatencyMs) ms")
        #expect(stats.encodeLatencyP99Ms >= 30, "p99 \(stats.encodeLatencyP99Ms) ms")
        #expect(stats.encodeLatencyP50Ms >= 1 && stats.encodeLatencyP50Ms < 30, "p50 \(stats.encodeLatencyP50Ms) ms")

        let json = try #require(String(data: try JSONEncoder().encode(stats), encoding: .utf8))
        for key in ["encode_latency_p50_ms", "encode_latency_p99_ms", "keyframe_encode_latency_ms"] {
            #expect(json.contains("\"\(key)\""), "\(key) missing from \(json)")
        }
    }
}
