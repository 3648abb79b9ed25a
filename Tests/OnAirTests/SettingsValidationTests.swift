import Foundation
import OnAir
import Testing

/// Named "Encoder…" so that `swift test --filter Encoder` runs it with the encoder suites.
@Suite struct EncoderSettingsValidationTests {
    static let base = VideoEncoderSettings(
        width: 640, height: 480, expectedFrameRate: 30, averageBitRate: 1_000_000,
        profileLevel: .auto(.high), encoder: "libx264")

    private func rejection(_ change: (inout VideoEncoderSettings) -> Void) -> SettingsError? {
        var settings = Self.base
        change(&settings)
        do { try settings.validate(); return nil } catch { return error }
    }

    @Test func defaultsAreValid() throws {
        try VideoEncoderSettings().validate()
        try AudioEncoderSettings().validate()
        try Self.base.validate()
    }

    @Test(arguments: [0, -2, 641, 17_000])
    func rejectsBadWidths(width: Int) {
        let error = rejection { $0.width = width }
        #expect(error?.field == "width")
        #expect(error?.allowed.contains("even") == true)
    }

    @Test func rejectsOddOrZeroHeight() {
        #expect(rejection { $0.height = 481 }?.field == "height")
        #expect(rejection { $0.height = 0 }?.field == "height")
    }

    @Test func rejectsNonPositiveBitRateAndFrameRate() {
        #expect(rejection { $0.averageBitRate = 0 }?.field == "averageBitRate")
        #expect(rejection { $0.averageBitRate = -5 }?.field == "averageBitRate")
        #expect(rejection { $0.expectedFrameRate = 0 }?.field == "expectedFrameRate")
    }

    @Test func rejectsKeyFrameIntervalBelowOne() {
        let error = rejection { $0.maxKeyFrameInterval = 0 }
        #expect(error?.field == "maxKeyFrameInterval")
        #expect(error?.allowed == "≥ 1 frame")
        #expect(rejection { $0.maxKeyFrameIntervalDuration = -1 }?.field == "maxKeyFrameIntervalDuration")
    }

    @Test func rejectsDataRateLimitBelowAverage() {
        let error = rejection { $0.dataRateLimits = [DataRateLimit(bytes: 100_000, seconds: 1)] }  // 800 kbit/s < 1 Mbit/s
        #expect(error?.field == "dataRateLimits[0]")
        #expect(error?.allowed.contains("averageBitRate") == true)
        #expect(rejection { $0.dataRateLimits = [DataRateLimit(bytes: 0, seconds: 1)] }?.field == "dataRateLimits[0].bytes")
    }

    @Test func rejectsBFramesWithBaseline() {
        let error = rejection {
            $0.profileLevel = .auto(.baseline)
            $0.allowFrameReordering = true
        }
        #expect(error?.field == "allowFrameReordering")
        #expect(rejection { $0.preset = "warp" }?.field == "preset")
    }

    @Test func rejectsSizeFrameRateAndBitRateBeyondFixedLevel() {
        // Level 3.0: MaxFS 1620 MBs, MaxMBPS 40500, MaxBR 10 Mbit/s (12.5 for High).
        let size = rejection {
            $0.width = 1280; $0.height = 720
            $0.profileLevel = H264ProfileLevel(.main, .l3)
        }
        #expect(size?.field == "width×height")
        #expect(size?.allowed.contains("1620") == true)
        let rate = rejection {
            $0.expectedFrameRate = 60  // 1200 MBs × 60 = 72000 > 40500
            $0.profileLevel = H264ProfileLevel(.main, .l3)
        }
        #expect(rate?.field == "expectedFrameRate")
        let bitRate = rejection {
            $0.averageBitRate = 11_000_000
            $0.dataRateLimits = []
            $0.profileLevel = H264ProfileLevel(.main, .l3)
        }
        #expect(bitRate?.field == "averageBitRate")
        #expect(bitRate?.allowed.contains("10000000") == true)
        // High gets 1.25×: 11 Mbit/s fits High@3.0 but not Main@3.0.
        #expect(
            rejection {
                $0.averageBitRate = 11_000_000
                $0.dataRateLimits = []
                $0.profileLevel = H264ProfileLevel(.high, .l3)
            } == nil)
        let cap = rejection {
            $0.dataRateLimits = [.relative(to: 9_000_000)]
            $0.profileLevel = H264ProfileLevel(.main, .l3)
        }
        #expect(cap?.field == "dataRateLimits[0]")
    }

    @Test func smallestLevelFits() {
        var settings = Self.base  // 640×480@30, 1 Mbit/s, cap 1.5 Mbit/s: 1200 MBs, 36000 MB/s → 3.0
        #expect(H264Level.smallest(fitting: settings) == .l3)
        settings.width = 1280; settings.height = 720  // 3600 MBs, 108000 MB/s → 3.1
        #expect(H264Level.smallest(fitting: settings) == .l31)
        settings.width = 1920; settings.height = 1080  // 8160 MBs → 4.0
        #expect(H264Level.smallest(fitting: settings) == .l4)
        settings.averageBitRate = 30_000_000; settings.dataRateLimits = []  // > 25 Mbit/s (High 4.0) → 4.1
        #expect(H264Level.smallest(fitting: settings) == .l41)
        settings.width = 16_384; settings.height = 16_384
        #expect(H264Level.smallest(fitting: settings) == nil)
        #expect(throws: SettingsError.self) { try settings.validate() }
    }

    @Test func effectiveKeyFrameIntervalTakesTheSmaller() {
        var settings = Self.base
        settings.maxKeyFrameInterval = 90
        settings.maxKeyFrameIntervalDuration = 2
        #expect(settings.effectiveKeyFrameInterval == 60)
        settings.maxKeyFrameIntervalDuration = 0
        #expect(settings.effectiveKeyFrameInterval == 90)
    }

    @Test func audioSettingsRejectUnsupportedRatesChannelsAndBitRates() {
        for rate in [7_350, 44_000, 192_000] {
            #expect(throws: SettingsError.self) { try AudioEncoderSettings(sampleRate: rate).validate() }
        }
        do { try AudioEncoderSettings(sampleRate: 44_000).validate() } catch {
            #expect(error.field == "sampleRate")
            #expect(error.allowed.contains("44100"))
        }
        for channels in [0, 7, 9] {
            do { try AudioEncoderSettings(channels: channels).validate(); Issue.record("\(channels) accepted") } catch {
                #expect(error.field == "channels")
            }
        }
        do { try AudioEncoderSettings(sampleRate: 8_000, channels: 1, bitRate: 128_000).validate() } catch {
            #expect(error.field == "bitRate")
            #expect(error.allowed == "1…48000 bits/s for 1 channel(s) at 8000 Hz")
        }
        #expect(throws: SettingsError.self) { try AudioEncoderSettings(bitRate: 0).validate() }
    }

    @Test func settingsRoundTripThroughCodable() throws {
        let data = try JSONEncoder().encode(Self.base)
        #expect(try JSONDecoder().decode(VideoEncoderSettings.self, from: data) == Self.base)
    }

    @Test func whipPublishingRefusesAnH265Encode() throws {
        var settings = SessionSettings()
        settings.video = .synthetic
        settings.audio = .synthetic
        settings.outputs = ["whip+http://127.0.0.1:8080/whip"]
        try settings.validate()
        settings.videoEncoder.codec = .h265
        #expect(throws: SettingsError.self) { try settings.validate() }
        do { try settings.validate() } catch let error as SettingsError {
            #expect(error.field == "outputs" && error.allowed.contains("H.264 for WHIP"), "\(error)")
        }
        settings.video = .none  // sound only: the codec does not matter
        try settings.validate()
    }
}
