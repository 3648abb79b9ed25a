#if os(Linux)
import OnAirCore

/// Measures A/V sync and frame continuity of a decoded recording of the synthetic source.
///
/// **A/V offset.** At capture time k s (k = 0, 1, 2, …) the audio beeps — the beep starts exactly
/// at sample k × rate — and the first video frame captured at or after k s is white. That flash
/// frame F was captured at c_F ≥ k (read from its frame code), not at k, so the moment k s of the
/// capture clock falls in the file's video timeline at p_F − (c_F − k), where p_F is F's
/// presentation time in the file. The beep onset's file time b_k is where k s falls in the audio
/// timeline. The offset is
///
///     offset_k = (p_F − (c_F − k)) − b_k
///
/// positive when video plays later than audio. For a file that preserves capture timing on both
/// tracks it is 0 by construction, whatever the frame rate and however capture times fall between
/// frame boundaries. k is ⌊c_F⌋ (in seconds: c_F lies within one frame after k); each flash is
/// paired with the beep nearest its expected time within ±0.5 s. If F's own code is unreadable,
/// c_F is estimated from the nearest frame with a readable code plus the difference in
/// presentation time. The report's maximum and mean are over |offset_k|.
///
/// **Continuity.** Dropped frames are the indices missing between the lowest and highest index read;
/// repeated frames are frames whose index had already been read.
package enum SyncAnalysis {
    /// The largest distance in seconds between a flash's expected beep time and a beep paired with it.
    public static let pairingWindow = 0.5

    /// Analyses frames observed in presentation order and beep onset times (seconds, file timeline).
    public static func analyze(
        frames: [FrameObservation], beepTimes: [Double],
        flashDetector: FlashDetector = FlashDetector()
    ) -> SyncReport {
        let flashStarts = flashDetector.flashStarts(in: frames.map(\.whiteness))
        var offsets = [SyncReport.Offset]()
        for position in flashStarts {
            guard let capture = captureSeconds(at: position, in: frames) else { continue }
            let second = (capture + 1e-7).rounded(.down)  // ⌊c_F⌋, tolerant of estimated capture times
            guard second >= 0 else { continue }
            let expected = frames[position].presentationTime - (capture - second)
            guard let beep = beepTimes.min(by: { abs($0 - expected) < abs($1 - expected) }),
                abs(beep - expected) <= pairingWindow
            else { continue }
            offsets.append(.init(second: Int64(second), offsetMilliseconds: (expected - beep) * 1000))
        }
        let magnitudes = offsets.map { abs($0.offsetMilliseconds) }
        let indices = frames.compactMap(\.frameIndex)
        let distinct = Set(indices)
        let span = indices.isEmpty ? 0 : (indices.max() ?? 0) - (indices.min() ?? 0) + 1
        return SyncReport(
            maxAVOffsetMilliseconds: magnitudes.max(),
            meanAVOffsetMilliseconds: magnitudes.isEmpty ? nil : magnitudes.reduce(0, +) / Double(magnitudes.count),
            flashes: flashStarts.count, beeps: beepTimes.count, frames: frames.count,
            droppedFrames: span - distinct.count, repeatedFrames: indices.count - distinct.count,
            offsets: offsets)
    }

    /// Analyses decoded frames (each `pts` the file's presentation time) and decoded audio (its `pts`
    /// the file time of its first sample); throws when the audio buffer is malformed.
    public static func analyze(
        videoFrames: [VideoFrame], audio: PCMBuffer,
        beepDetector: BeepDetector = BeepDetector(),
        flashDetector: FlashDetector = FlashDetector()
    ) throws(SyncError) -> SyncReport {
        let beeps = try beepDetector.onsets(in: audio)
        return analyze(
            frames: videoFrames.map { FrameObservation(frame: $0) }, beepTimes: beeps,
            flashDetector: flashDetector)
    }

    /// The capture time in seconds of the frame at `position`: from its code, or estimated from the
    /// nearest frame with a readable code.
    private static func captureSeconds(at position: Int, in frames: [FrameObservation]) -> Double? {
        if let micros = frames[position].captureMicroseconds { return Double(micros) / 1_000_000 }
        for distance in 1..<max(1, frames.count) {
            for neighbour in [position - distance, position + distance] where frames.indices.contains(neighbour) {
                if let micros = frames[neighbour].captureMicroseconds {
                    return Double(micros) / 1_000_000
                        + frames[position].presentationTime - frames[neighbour].presentationTime
                }
            }
        }
        return nil
    }
}
#endif
