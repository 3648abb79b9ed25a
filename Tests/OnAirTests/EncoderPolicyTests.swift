import OnAir
import Testing

/// Policy that used to live in the command-line tool and now lives in the library: the encoder
/// opens at the highest adaptive rate, HLS outputs get a keyframe at least once per segment, and
/// serving turns B-frames off.
@Suite struct EncoderPolicyTests {
    @Test func adaptiveBitRateOpensTheEncoderAtItsHighestRate() {
        let video = VideoEncoderSettings(averageBitRate: 1_000_000, dataRateLimits: [.relative(to: 1_000_000)])
        var configuration = LiveSession.Configuration(video: video, audio: nil)
        #expect(configuration.openingVideo == video)
        configuration.adaptiveBitRate = AdaptiveBitrateSettings(
            minimumBitRate: 200_000, maximumBitRate: 3_000_000,
            initialBitRate: 1_000_000, audioBitRate: 0)
        let opened = configuration.openingVideo
        #expect(opened?.averageBitRate == 3_000_000)
        #expect(opened?.dataRateLimits == video.dataRateLimits(scaledTo: 3_000_000))
        // A ceiling below the configured rate never opens the encoder lower than asked.
        configuration.adaptiveBitRate = AdaptiveBitrateSettings(
            minimumBitRate: 200_000, maximumBitRate: 500_000,
            initialBitRate: 500_000, audioBitRate: 0)
        #expect(configuration.openingVideo == video)
    }

    @Test func hlsOutputsTightenTheKeyFrameInterval() {
        var video = VideoEncoderSettings()
        video.maxKeyFrameIntervalDuration = 5
        var options = SinkFactory.ContainerOptions()
        options.hlsSegmentDuration = .seconds(2)
        #expect(SinkFactory.videoSettings(video, for: ["out.mp4", "out.ts"], options: options).maxKeyFrameIntervalDuration == 5)
        #expect(SinkFactory.videoSettings(video, for: ["out.mp4", "live/x.m3u8"], options: options).maxKeyFrameIntervalDuration == 2)
        #expect(SinkFactory.videoSettings(video, for: ["hls:live"], options: options).maxKeyFrameIntervalDuration == 2)
        // A tighter limit stays; no limit (0) gets one.
        video.maxKeyFrameIntervalDuration = 1
        #expect(video.withKeyFrames(atLeastEvery: 2).maxKeyFrameIntervalDuration == 1)
        video.maxKeyFrameIntervalDuration = 0
        #expect(video.withKeyFrames(atLeastEvery: 2).maxKeyFrameIntervalDuration == 2)
    }

    #if canImport(OnAirHTTP)
    @Test func servingTurnsBFramesOffAndAlignsKeyFrames() {
        var video = VideoEncoderSettings()
        video.allowFrameReordering = true
        video.maxKeyFrameIntervalDuration = 10
        let served = ServeOutputs.videoSettings(video, hlsSegmentDuration: 3)
        #expect(served.allowFrameReordering == false)
        #expect(served.maxKeyFrameIntervalDuration == 3)
    }
    #endif
}
