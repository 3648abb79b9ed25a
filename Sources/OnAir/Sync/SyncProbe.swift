#if canImport(OnAirFFmpeg)
import OnAirFFmpeg

/// Measures A/V sync, dropped and repeated frames in a recording of the synthetic source.
///
/// Decodes both streams of the file with libavcodec, reads every frame's code and whiteness and
/// every beep onset, and hands them to `SyncAnalysis`. Memory stays flat for long files.
public enum SyncProbe {
    /// Analyses the file at `path`.
    public static func analyze(path: String) throws -> SyncReport {
        let decoder = try MediaFileDecoder(path: path)
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
