import OnAirCore
import Testing

/// `MotionDetector` on synthetic 320x180 luma frames at 5 fps with the times given to it: a scene
/// with sensor noise, a slow lighting ramp and a small object moving throughout gives motion only
/// while a large block moves (one start within a frame of its first move, one end a hold after it
/// stops); a lighting step is not motion; a source that stops sending still ends its motion.
@Suite struct MotionDetectorTests {
    static let width = 320, height = 180

    /// A deterministic noise source (xorshift).
    struct Noise {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % 13) - 6
        }
    }

    /// One frame: a gradient lit by `light`, noise, a 6x6 object at `small` and, when given, a
    /// 48x48 dark textured block (its stripes move with it) at `block` (top-left corners).
    static func frame(light: Int, small: (Int, Int), block: (Int, Int)?, noise: inout Noise) -> [UInt8] {
        var luma = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var value = 40 + x / 4 + y / 4 + light + noise.next()
                if (small.0..<(small.0 + 6)).contains(x), (small.1..<(small.1 + 6)).contains(y) { value = 230 }
                if let block, (block.0..<(block.0 + 48)).contains(x), (block.1..<(block.1 + 48)).contains(y) {
                    value = ((x - block.0) / 6 + (y - block.1) / 12) % 2 == 0 ? 10 : 50
                }
                luma[y * width + x] = UInt8(clamping: value)
            }
        }
        return luma
    }

    static func analyze(_ detector: inout MotionDetector, _ luma: [UInt8], at time: Double) -> MotionDetector.Change? {
        luma.withUnsafeBytes { detector.analyze(luma: $0, width: width, height: height, bytesPerRow: width, at: time) }
    }

    /// 10 s still, 5 s of a moving block, 10 s still, as the motion clip has it.
    @Test func motionOnlyWhileTheBlockMoves() {
        var detector = MotionDetector()
        var noise = Noise()
        var changes: [MotionDetector.Change] = []
        var areas: [Int] = []
        for index in 0..<125 {
            let time = Double(index) * 0.2
            let small = (20 + (index * 3) % 250, 150)
            let block = (40 + (min(max(index, 50), 74) - 50) * 8, 60)
            let luma = Self.frame(light: index / 4, small: small, block: index >= 50 ? block : nil, noise: &noise)
            if let change = Self.analyze(&detector, luma, at: time) { changes.append(change) }
            areas.append(detector.lastArea)
        }
        // The block appears at frame 50 (10.0 s) and last moves at frame 74 (14.8 s).
        #expect(changes.count == 2, "\(changes)")
        guard changes.count == 2, case .started(let start) = changes[0], case .ended(let end) = changes[1] else { return }
        #expect(start >= 10.0 && start <= 11.0)
        #expect(end >= 14.8 + 2.0 - 0.01 && end <= 14.8 + 2.0 + 1.0, "\(changes) \(areas)")
    }

    @Test func aLightingStepIsNotMotion() {
        var detector = MotionDetector()
        var noise = Noise()
        var changes: [MotionDetector.Change] = []
        for index in 0..<20 {
            let luma = Self.frame(light: index < 10 ? 0 : 40, small: (10, 10), block: nil, noise: &noise)
            if let change = Self.analyze(&detector, luma, at: Double(index) * 0.2) { changes.append(change) }
        }
        #expect(changes.isEmpty)
    }

    @Test func theHoldRunsOutWithoutFrames() {
        var detector = MotionDetector()
        var noise = Noise()
        _ = Self.analyze(&detector, Self.frame(light: 0, small: (0, 0), block: nil, noise: &noise), at: 0)
        #expect(Self.analyze(&detector, Self.frame(light: 0, small: (0, 0), block: (100, 60), noise: &noise), at: 0.2) == .started(at: 0.2))
        // A frame closer than the interval is skipped; a picture smaller than the grid is refused.
        #expect(Self.analyze(&detector, Self.frame(light: 0, small: (0, 0), block: (10, 10), noise: &noise), at: 0.25) == nil)
        let tiny = [UInt8](repeating: 0, count: 16)
        #expect(tiny.withUnsafeBytes { detector.analyze(luma: $0, width: 4, height: 4, bytesPerRow: 4, at: 1) } == nil)
        #expect(detector.isMotion)
        #expect(detector.expire(at: 2.1) == nil)
        #expect(detector.expire(at: 2.2) == .ended(at: 2.2))
        #expect(!detector.isMotion)
    }

    @Test func groupsAreFourConnected() {
        // 3x3: {0, 3} and {2, 5, 7, 8} count, the lone cell 6 does not (noise).
        let cells = [true, false, true, true, false, true, false, true, true]
        #expect(MotionDetector.changedArea(cells, columns: 3, rows: 3) == 6)
        #expect(MotionDetector.changedArea([true, false, false, false, false, false, true, false, false], columns: 3, rows: 3) == 0)
    }
}
