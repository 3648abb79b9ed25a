import OnAirApple
import OnAirCore
import Testing

/// The microphone's portable core: the device's PCM format, its buffers as `PCMBuffer`s, the
/// capture timeline, and how a stopped capture session is reported.
@Suite struct MicrophoneCaptureTests {
    static let signedPacked: UInt32 = 4 | 8
    static let floatPackedNonInterleaved: UInt32 = 1 | 8 | 32

    static func format(
        id: UInt32 = CapturedAudioFormat.linearPCM, flags: UInt32 = signedPacked, rate: Double = 48_000, channels: UInt32 = 2,
        bits: UInt32 = 16, bytesPerFrame: UInt32 = 4
    ) throws(AppleBackendError) -> CapturedAudioFormat {
        try CapturedAudioFormat(
            formatID: id, flags: flags, sampleRate: rate, channelsPerFrame: channels, bitsPerChannel: bits, bytesPerFrame: bytesPerFrame)
    }

    @Test func readsTheFormatsDevicesDeliver() throws {
        // iOS: 16-bit integer, interleaved.
        let phone = try Self.format()
        #expect(phone.sampleFormat == .s16 && !phone.isPlanar && phone.channels == 2 && phone.sampleRate == 48_000)
        #expect(phone.bufferCount == 1 && phone.bytesPerBuffer(frameCount: 10) == 40)
        // macOS: 32-bit float, one buffer per channel (bytesPerFrame is one channel's).
        let mac = try Self.format(flags: Self.floatPackedNonInterleaved, rate: 44_100, bits: 32, bytesPerFrame: 4)
        #expect(mac.sampleFormat == .f32 && mac.isPlanar && mac.bufferCount == 2 && mac.bytesPerBuffer(frameCount: 10) == 40)
        let wide = try Self.format(channels: 1, bits: 32, bytesPerFrame: 4)
        #expect(wide.sampleFormat == .s32 && wide.channels == 1)
    }

    @Test func refusesWhatTheEncodersCannotTake() {
        let refused: [(String, () throws(AppleBackendError) -> CapturedAudioFormat)] = [
            ("AAC", { () throws(AppleBackendError) in try Self.format(id: 0x6161_6320) }),
            ("big-endian", { () throws(AppleBackendError) in try Self.format(flags: Self.signedPacked | 2) }),
            ("24-bit", { () throws(AppleBackendError) in try Self.format(bits: 24, bytesPerFrame: 6) }),
            ("8-bit unsigned", { () throws(AppleBackendError) in try Self.format(flags: 8, bits: 8, bytesPerFrame: 2) }),
            ("not packed", { () throws(AppleBackendError) in try Self.format(bytesPerFrame: 8) }),
            ("fractional rate", { () throws(AppleBackendError) in try Self.format(rate: 44_100.5) }),
            ("no channels", { () throws(AppleBackendError) in try Self.format(channels: 0, bytesPerFrame: 0) }),
        ]
        for (name, make) in refused {
            #expect(throws: AppleBackendError.self, "\(name)") { try make() }
        }
    }

    @Test func copiesTheBuffersIntoAPCMBuffer() throws {
        let format = try Self.format()
        let bytes: [UInt8] = (0..<4_100).map { UInt8($0 % 251) }
        let buffer = try bytes.withUnsafeBytes { raw in
            try format.buffer(from: [raw], frameCount: 1_024, pts: MediaTime(value: 7, timescale: 1_000))
        }
        #expect(buffer.frameCount == 1_024 && buffer.channels == 2 && buffer.sampleFormat == .s16 && !buffer.isPlanar)
        #expect(buffer.pts == MediaTime(value: 7, timescale: 1_000))
        // The extra bytes past 1024 frames are not taken.
        #expect(buffer.planeBuffers.count == 1 && buffer.planeBuffers[0].count == 4_096)
        #expect(buffer.planeBuffers[0].withUnsafeBytes { Array($0) } == Array(bytes.prefix(4_096)))

        // The same samples reach the AAC packetizer as one whole frame.
        var packetizer = AACPacketizer(settings: AudioEncoderSettings(sampleRate: 48_000, channels: 2))
        let frames = try packetizer.append(buffer)
        #expect(frames.count == 1 && frames[0].pts == MediaTime(value: 7, timescale: 1_000))
    }

    @Test func planarBuffersStayApart() throws {
        let format = try Self.format(flags: Self.floatPackedNonInterleaved, bits: 32, bytesPerFrame: 4)
        let left = [UInt8](repeating: 1, count: 64), right = [UInt8](repeating: 2, count: 64)
        let buffer = try left.withUnsafeBytes { l in
            try right.withUnsafeBytes { r in try format.buffer(from: [l, r], frameCount: 16, pts: .zero) }
        }
        #expect(buffer.isPlanar && buffer.planeBuffers.map { $0.withUnsafeBytes { Array($0) } } == [left, right])
    }

    @Test func refusesBuffersThatDoNotHoldTheCount() throws {
        let format = try Self.format(flags: Self.floatPackedNonInterleaved, bits: 32, bytesPerFrame: 4)
        let plane = [UInt8](repeating: 0, count: 60)
        #expect(throws: AppleBackendError.self) {
            try plane.withUnsafeBytes { try format.buffer(from: [$0], frameCount: 15, pts: .zero) }
        }
        #expect(throws: AppleBackendError.self) {
            try plane.withUnsafeBytes { try format.buffer(from: [$0, $0], frameCount: 16, pts: .zero) }
        }
        #expect(throws: AppleBackendError.self) {
            try plane.withUnsafeBytes { try format.buffer(from: [$0, $0], frameCount: 0, pts: .zero) }
        }
    }

    @Test func timelineCountsSamplesThroughJitter() {
        var timeline = CapturedAudioTimeline()
        let start = MediaTime(value: 2_000_000, timescale: 1_000_000)
        var stamps: [MediaTime] = []
        for index in 0..<100 {
            // Device stamps wobble by up to ±5 ms around the true time.
            let jitter = Int64((index * 7919) % 11 - 5) * 1_000
            let device = start + MediaTime(value: Int64(index) * 470 * 1_000_000 / 48_000 + jitter, timescale: 1_000_000)
            stamps.append(timeline.pts(deviceTime: device, frameCount: 470, sampleRate: 48_000))
        }
        // Anchored at the first stamp (5 ms early here), then exactly 470 samples apart.
        #expect(stamps[0] == start - MediaTime(value: 5, timescale: 1_000))
        for (index, pts) in stamps.enumerated() {
            #expect(pts == stamps[0] + MediaTime(value: Int64(index * 470), timescale: 48_000))
        }
        #expect(timeline.reanchors == 0)
    }

    @Test func timelineFollowsAGapAndNeverGoesBack() {
        var timeline = CapturedAudioTimeline()
        let first = timeline.pts(deviceTime: .zero, frameCount: 480, sampleRate: 48_000)
        #expect(first == .zero)
        // Half a second missing (an interruption): the timeline follows the device.
        let afterGap = timeline.pts(deviceTime: MediaTime(value: 510, timescale: 1_000), frameCount: 480, sampleRate: 48_000)
        #expect(afterGap == MediaTime(value: 510, timescale: 1_000) && timeline.reanchors == 1)
        // A device stamp that stepped back: the timeline keeps counting forward.
        let back = timeline.pts(deviceTime: MediaTime(value: 100, timescale: 1_000), frameCount: 480, sampleRate: 48_000)
        #expect(back == MediaTime(value: 520, timescale: 1_000))
    }

    @Test func aStoppedSessionIsReportedWithItsReason() {
        #expect(
            CaptureStop.deviceDisconnected.error(source: "microphone Built-in").description
                == "microphone Built-in failed: the device was disconnected")
        #expect(CaptureStop.interrupted(reason: 2).reason.contains("audio device"))
        #expect(CaptureStop.interrupted(reason: nil).reason == "the capture session was interrupted")
        #expect(CaptureStop.interrupted(reason: 42).reason.hasSuffix("reason 42"))
        #expect(CaptureStop.runtimeError("media services were reset").reason.hasSuffix(": media services were reset"))
    }
}
