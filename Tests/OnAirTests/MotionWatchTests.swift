import Foundation
import OnAirCore
import OnAirLive
import Testing

/// `MotionWatch` as the session runs it: every captured frame handed over (15 fps here), five a
/// second analysed, the changes reported outside its lock with the frames' capture times; packed
/// RGB is left alone with one notice. Also prints what the watch costs per second of 320x180
/// capture (the issue's budget: under 2 % of one core).
@Suite struct MotionWatchTests {
    static let width = 320, height = 180

    /// A 320x180 YUV 4:2:0 frame at `time`: the scene of `MotionDetectorTests` (noise, a 48x48
    /// textured block at `block` when given).
    static func frame(at time: Double, block: (Int, Int)?, noise: inout MotionDetectorTests.Noise) -> VideoFrame {
        let luma = MotionDetectorTests.frame(light: 0, small: (Int(time * 40) % 300, 20), block: block, noise: &noise)
        let chroma = [UInt8](repeating: 128, count: width / 2 * height / 2)
        return VideoFrame(
            width: width, height: height, pixelFormat: .yuv420p,
            planes: [
                .init(bytes: luma, bytesPerRow: width), .init(bytes: chroma, bytesPerRow: width / 2),
                .init(bytes: chroma, bytesPerRow: width / 2),
            ],
            pts: MediaTime(seconds: time))
    }

    @Test func reportsOneStartAndOneEndAroundTheMovingBlock() {
        let changes = Locked<[(Bool, Double)]>([])
        let watch = MotionWatch(settings: MotionSettings().detector) { isMotion, time in
            changes.withLock { $0.append((isMotion, time)) }
        }
        var noise = MotionDetectorTests.Noise()
        for index in 0..<(15 * 9) {
            let time = Double(index) / 15
            // Still for 2 s, the block moves for 2 s, still again.
            let block = time < 2 ? (20, 66) : time < 4 ? (20 + Int((time - 2) * 70), 66) : (160, 66)
            watch.observe(Self.frame(at: time, block: block, noise: &noise))
        }
        let seen = changes.current
        #expect(seen.map(\.0) == [true, false], "\(seen)")
        #expect((2.0...2.5).contains(seen.first?.1 ?? -1), "\(seen)")
        // The hold (2 s) runs out after the last moving frame compared.
        #expect((5.8...6.6).contains(seen.last?.1 ?? -1), "\(seen)")
        #expect(watch.starts == 1 && !watch.isMotion)
    }

    @Test func packedRGBIsNotReadAndSaidOnce() {
        let notices = Locked<[String]>([])
        let watch = MotionWatch(
            settings: MotionSettings().detector, changed: { _, _ in Issue.record("no change expected") },
            notice: { message in notices.withLock { $0.append(message) } })
        for index in 0..<20 {
            let pixels = [UInt8](repeating: UInt8(index * 10), count: 64 * 36 * 4)
            watch.observe(
                VideoFrame(
                    width: 64, height: 36, pixelFormat: .bgra, planes: [.init(bytes: pixels, bytesPerRow: 64 * 4)],
                    pts: MediaTime(seconds: Double(index) * 0.2)))
        }
        #expect(notices.current.count == 1)
        #expect(notices.current.first?.contains("bgra") == true)
    }

    @Test func settingsOutOfRangeAreRefused() {
        var settings = MotionSettings()
        #expect(throws: Never.self) { try settings.validate() }
        settings.sensitivity = 1.5
        #expect(throws: SettingsError.self) { try settings.validate() }
        settings = MotionSettings()
        settings.minimumArea = 0
        #expect(throws: SettingsError.self) { try settings.validate() }
        settings = MotionSettings()
        settings.holdTime = .milliseconds(100)
        #expect(throws: SettingsError.self) { try settings.validate() }
        settings = MotionSettings()
        settings.onMotion = ""
        #expect(throws: SettingsError.self) { try settings.validate() }
        settings = MotionSettings()
        settings.holdTime = .seconds(5)
        #expect(settings.detector.holdTime == 5 && settings.detector.interval == 0.2)
    }

    /// The cost of 60 s of 15 fps capture through the watch (300 frames analysed), printed as a
    /// share of one core; not judged here (the machine is shared), see bench/motion_cost.sh.
    @Test func costPerSecondOfCapture() {
        let watch = MotionWatch(settings: MotionSettings().detector) { _, _ in }
        var noise = MotionDetectorTests.Noise()
        let frames = (0..<16).map { Self.frame(at: 0, block: ($0 % 2 == 0 ? (40, 60) : (90, 60)), noise: &noise) }
        let clock = ContinuousClock()
        let spent = clock.measure {
            for index in 0..<(15 * 60) {
                var frame = frames[index % frames.count]
                frame.pts = MediaTime(seconds: Double(index) / 15)
                watch.observe(frame)
            }
        }
        let seconds = Double(spent.components.seconds) + Double(spent.components.attoseconds) / 1e18
        print(
            "MotionWatch: 60 s of 320x180 at 15 fps (5 fps analysed) in \(String(format: "%.2f", seconds * 1000)) ms: \(String(format: "%.4f", seconds / 60 * 100)) % of one core"
        )
        #expect(watch.starts >= 1)
    }
}
