import Foundation
import OnAir
import Testing

/// A further encode's settings (the sub stream) from the main encode's, and what settings refuse.
@Suite struct VideoRenditionTests {
    static let main = VideoEncoderSettings(
        width: 1920, height: 1080, expectedFrameRate: 30, averageBitRate: 4_000_000, maxKeyFrameIntervalDuration: 2,
        profileLevel: H264ProfileLevel(.main, .l41), preset: "faster")

    @Test func settingsFollowTheMainEncodeAtTheirOwnSizeRateAndBitrate() {
        let sub = VideoRendition(width: 640, height: 360, frameRate: 5).encoderSettings(main: Self.main)
        #expect(sub.width == 640 && sub.height == 360 && sub.expectedFrameRate == 5)
        #expect(sub.profileLevel.profile == .main && sub.profileLevel.level == nil && sub.preset == "faster")
        #expect(sub.maxKeyFrameIntervalDuration == 2 && sub.effectiveKeyFrameInterval == 10)
        // 1/9 of the pixels at 1/6 of the rate: 4 Mb/s / 54 ≈ 74 kb/s, raised to the 300 kb/s floor.
        #expect(sub.averageBitRate == 300_000 && sub.dataRateLimits == [.relative(to: 300_000)])
        let large = VideoRendition(width: 1280, height: 720, frameRate: 30).encoderSettings(main: Self.main)
        #expect(large.averageBitRate == 4_000_000 * 921_600 / 2_073_600)
        let given = VideoRendition(width: 640, height: 360, frameRate: 5, bitRate: 500_000).encoderSettings(main: Self.main)
        #expect(given.averageBitRate == 500_000)
    }

    @Test func badNamesSizesAndDuplicatesAreRefusedNamingTheField() {
        func problem(_ renditions: [VideoRendition]) -> String? {
            var settings = SessionSettings()
            settings.video = .synthetic
            settings.outputs = ["a.mp4"]
            settings.renditions = renditions
            do { try settings.validate(); return nil } catch { return (error as? SettingsError)?.field ?? "\(error)" }
        }
        #expect(problem([VideoRendition(width: 640, height: 360, frameRate: 5)]) == nil)
        #expect(problem([VideoRendition(name: "live", width: 640, height: 360, frameRate: 5)]) == "renditions.name")
        #expect(problem([VideoRendition(name: "Sub/1", width: 640, height: 360, frameRate: 5)]) == "renditions.name")
        #expect(problem([VideoRendition(width: 641, height: 360, frameRate: 5)]) == "width")
        #expect(problem([VideoRendition(width: 640, height: 360, frameRate: 0)]) == "expectedFrameRate")
        #expect(problem([VideoRendition(width: 640, height: 360, frameRate: 5, outputs: ["srt://127.0.0.1:9000"])]) == "renditions.outputs")
        let twice = VideoRendition(width: 640, height: 360, frameRate: 5)
        #expect(problem([twice, twice]) == "renditions.name")
    }
}
