#if os(Linux)
#if canImport(OnAirFFmpeg)
import OnAirFFmpeg

extension SyncReport {
    /// Measures A/V sync, dropped and repeated frames in the file at `path`, a recording of the
    /// synthetic source (its flashes, beeps and frame codes).
    public static func analyze(path: String) throws -> SyncReport {
        try SyncProbe.analyze(path: path)
    }
}

/// Measures A/V sync, dropped and repeated frames in a recording of the synthetic source.
///
/// Decodes both streams of the file with libavcodec, reads every frame's code and whiteness and
/// every beep onset, and hands them to `SyncAnalysis`. Memory stays flat for long files.
package enum SyncProbe {
    /// Analyses the file at `path`.
    public static func analyze(path: String) throws -> SyncReport {
        // Each frame at its own size: a frame code scaled to the first size mid-file is unreadable.
        let decoder = try MediaFileDecoder(path: path, videoOutput: MediaFileDecoder.VideoOutput(width: 0, height: 0))
        var frames: [FrameObservation] = []
        var beeps = StreamingBeepDetector()
        while let output = try decoder.next() {
            switch output {
            case .video(let frame): frames.append(FrameObservation(frame: frame))
            case .audio(let buffer): try beeps.add(buffer)
            }
        }
        beeps.flush()
        return SyncAnalysis.analyze(frames: frames, beepTimes: beeps.onsets)
    }
}
#endif
#endif
