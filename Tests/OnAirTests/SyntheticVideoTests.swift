#if os(Linux)
import Foundation
import OnAir
import Testing

@Suite struct SyntheticVideoTests {
    @Test(arguments: [(640, 360), (160, 120), (1920, 1080), (64, 48), (333, 201)])
    func codeReadsBackFromUncompressedFrames(width: Int, height: Int) throws {
        let video = try SyntheticVideo(width: width, height: height, frameRate: 30)
        for index in [0, 1, 29, 30, 31, 1234, Int(UInt32.max)] {
            let micros = Int64(index % 1_000_000) * 33_333 + 17
            let frame = video.frame(index: index, captureTime: MediaTime(value: micros, timescale: 1_000_000))
            #expect(frame.layoutProblem() == nil)
            let code = try #require(FrameCode.read(from: frame))
            #expect(code.index == index)
            #expect(code.captureMicroseconds == micros)
        }
    }

    @Test func codeCarriesLargeAndNegativeTimes() throws {
        let video = try SyntheticVideo(width: 320, height: 240, frameRate: 25)
        for micros: Int64 in [(1 << 47) - 1, -(1 << 47), -1, 1_000_000_000_000] {
            let frame = video.frame(index: 7, captureTime: MediaTime(value: micros, timescale: 1_000_000))
            #expect(FrameCode.read(from: frame)?.captureMicroseconds == micros)
        }
    }

    @Test func flashesOnFirstFrameAtOrAfterEachWholeSecond() throws {
        let video = try SyntheticVideo(width: 160, height: 120, frameRate: 30)
        // Capture times not on frame boundaries: 12.5 ms after each 1/30 s tick.
        let frames = SyntheticTestMedia.frames(video, count: 95, start: 0.0125)
        let white = frames.enumerated().filter { (FlashDetector.whiteness(of: $0.element) ?? 0) > 0.9 }.map(\.offset)
        // 0.0125 + i/30 ≥ k first at i = 30 and 60 and 90 (k = 1, 2, 3); frame 0 is at 0.0125 > 0 but
        // its nominal predecessor (−0.0208) is before 0, so it flashes for k = 0.
        #expect(white == [0, 30, 60, 90])
        let plain = frames.enumerated().filter { !white.contains($0.offset) }
        #expect(plain.allSatisfy { (FlashDetector.whiteness(of: $0.element) ?? 1) < 0.05 })
    }

    @Test func explicitPreviousCaptureTimeDecidesFlash() throws {
        let video = try SyntheticVideo(width: 160, height: 120, frameRate: 30)
        let second = MediaTime(value: 1, timescale: 1)
        #expect(video.isFlash(captureTime: second, previousCaptureTime: MediaTime(seconds: 0.99)))
        #expect(!video.isFlash(captureTime: MediaTime(seconds: 1.02), previousCaptureTime: second))
        #expect(video.isFlash(captureTime: MediaTime(seconds: 1.05), previousCaptureTime: MediaTime(seconds: 0.99)))
        #expect(!video.isFlash(captureTime: MediaTime(seconds: -0.5), previousCaptureTime: MediaTime(seconds: -0.6)))
        // Nominal predecessor: exactly on the frame grid at 30 fps, only frame 30 of 29…32 flashes.
        let flashes = (29...32).filter { video.isFlash(captureTime: MediaTime(value: Int64($0), timescale: 30)) }
        #expect(flashes == [30])
    }

    @Test func framesAreDeterministicAndMoving() throws {
        let video = try SyntheticVideo(width: 320, height: 180, frameRate: 30)
        let time = MediaTime(seconds: 0.5)
        let a = video.frame(index: 5, captureTime: time), b = video.frame(index: 5, captureTime: time)
        #expect(a.planes == b.planes)
        let next = video.frame(index: 6, captureTime: MediaTime(seconds: 0.533))
        let changed = zip(a.planes[0].bytes, next.planes[0].bytes).filter { $0 != $1 }.count
        #expect(changed > a.planes[0].bytes.count / 2)
        // Detailed, not flat: many distinct luma values and strong neighbour differences.
        #expect(Set(a.planes[0].bytes).count > 120)
        let luma = a.planes[0].bytes
        let gradient = (1..<luma.count).reduce(0) { $0 + abs(Int(luma[$1]) - Int(luma[$1 - 1])) }
        #expect(Double(gradient) / Double(luma.count) > 8)
    }

    @Test func rejectsBadSettings() {
        #expect(throws: SettingsError.self) { try SyntheticVideo(width: 10, height: 120, frameRate: 30) }
        #expect(throws: SettingsError.self) { try SyntheticVideo(width: 160, height: 120, frameRate: 0) }
        #expect(throws: SettingsError.self) { try SyntheticVideo(width: 160, height: 9000, frameRate: 30) }
    }

    /// Release-build speed check; run with ONAIR_BENCH=1 and -c release to print frames/s.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ONAIR_BENCH"] == "1"))
    func generationSpeed1080p() throws {
        let video = try SyntheticVideo(width: 1920, height: 1080, frameRate: 60)
        let count = 240
        let clock = ContinuousClock()
        var checksum = 0
        let elapsed = clock.measure {
            for index in 0..<count {
                let frame = video.frame(index: index, captureTime: MediaTime(value: Int64(index), timescale: 60))
                checksum &+= Int(frame.planes[0].bytes[index * 997])
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("SyntheticVideo 1920x1080: \(Double(count) / seconds) frames/s (checksum \(checksum))")
        #expect(checksum != 0)
    }
}
#endif
