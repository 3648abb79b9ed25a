#if os(Linux)
#if canImport(OnAirFFmpeg)
import OnAirAnalysis
import OnAirCore
import OnAirFFmpeg
import OnAirLive

extension ScreenRecordingReport {
    /// Reads a screen recording of `onair play` showing the synthetic source (the frame codes
    /// seen, their order, gaps and glass-to-glass latency, A/V sync); `settle` seconds at the
    /// start are left out of the steady-state figures.
    public static func analyze(path: String, settle: Double = 2) throws -> ScreenRecordingReport {
        try ScreenRecordingAnalysis.analyze(path: path, settle: settle)
    }
}

/// Measures a player from a recording of its screen and speakers: a file recorded with
/// `ffmpeg -f x11grab … -f pulse -i SINK.monitor -copyts` (timestamps are the wall clock, in
/// microseconds) while the player showed the live synthetic source, window size = video size.
///
/// Reads the frame code of every recorded picture: the order the frames appeared in, how many
/// never appeared (skipped), glass-to-glass latency (the recording's wall-clock timestamp of a
/// frame's first appearance minus the sender's wall-clock capture time in its second code), and
/// pairs the beeps heard with the flashes seen (`SyncAnalysis`).
package enum ScreenRecordingAnalysis {
    /// The figures, with `settle` seconds at the start left out of the steady-state counts.
    public static func analyze(path: String, settle: Double = 2) throws -> ScreenRecordingReport {
        let decoder = try MediaFileDecoder(path: path)
        var observations: [FrameObservation] = []
        var wallCodes: [Int: Int64] = [:]
        var beeps = StreamingBeepDetector()
        while let output = try decoder.next() {
            switch output {
            case .video(let frame):
                let observation = FrameObservation(frame: frame)
                observations.append(observation)
                if let index = observation.frameIndex, wallCodes[index] == nil,
                    let wall = FrameCode.readWallClock(from: frame), wall.index == index
                {
                    wallCodes[index] = wall.wallClockMicroseconds
                }
            case .audio(let buffer):
                try beeps.add(buffer)
            }
        }
        beeps.flush()
        return report(observations: observations, wallCodes: wallCodes, beepTimes: beeps.onsets, settle: settle)
    }

    /// The figures for recorded pictures (presentation time = the wall clock in seconds), the
    /// wall-clock capture codes by frame index, and beep onset times on the same clock.
    package static func report(
        observations: [FrameObservation], wallCodes: [Int: Int64], beepTimes: [Double],
        settle: Double
    ) -> ScreenRecordingReport {
        var result = ScreenRecordingReport()
        result.recordedFrames = observations.count
        let start = observations.first?.presentationTime ?? 0
        var highest: Int?
        var previous: Int?
        var firstSeen: [Int: Double] = [:]
        var steadyCodes: [Int] = []
        var latency = LatencyStatistics()
        for observation in observations {
            guard let index = observation.frameIndex else { continue }
            result.framesWithCode += 1
            if index == previous { result.repeated += 1 }
            if let top = highest, index < top { result.outOfOrder += 1 }
            highest = max(highest ?? index, index)
            previous = index
            if firstSeen[index] == nil {
                firstSeen[index] = observation.presentationTime
                if observation.presentationTime - start >= settle { steadyCodes.append(index) }
                if let code = wallCodes[index] {
                    let seen = Int64((observation.presentationTime * 1_000_000).rounded()) & FrameCode.wallClockMask
                    var difference = (seen - code) & FrameCode.wallClockMask
                    if difference >= 1 << 47 { difference -= 1 << 48 }
                    latency.add(Double(difference) / 1_000_000)
                }
            }
        }
        result.distinctFrames = firstSeen.count
        if let low = firstSeen.keys.min(), let high = firstSeen.keys.max() {
            result.firstFrame = low
            result.lastFrame = high
            result.skipped = (high - low + 1) - firstSeen.count
        }
        if let low = steadyCodes.min(), let high = steadyCodes.max() {
            let seen = Set(steadyCodes)
            result.steadyFrames = seen.count
            result.steadySkipped = (high - low + 1) - seen.count
        }
        if let p50 = latency.percentile(50) {
            result.latencyMs = .init(
                p50: round(p50 * 1000), p95: round((latency.percentile(95) ?? p50) * 1000),
                max: round((latency.maximum ?? p50) * 1000), samples: latency.count, startupFrames: 0)
        }
        result.sync = SyncAnalysis.analyze(frames: observations, beepTimes: beepTimes)
        return result
    }

    private static func round(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
#endif
#endif
