import OnAirCore

/// The motion detector on the capture: handed every captured video frame on the capture's own
/// thread, it lets all but five a second go at once (one comparison under a lock) and reduces
/// the others to `MotionDetector`'s grid by sampling the luma plane in place (a 128×72 lattice:
/// the picture downscaled without a copy or a thread of its own). Changes go to `changed`,
/// called on the capture thread outside the lock, which must not block (queue the work).
package final class MotionWatch: Sendable {
    private struct State {
        var detector: MotionDetector
        var starts = 0
        var warnedFormat = false
    }

    private let state: Locked<State>
    private let changed: @Sendable (_ isMotion: Bool, _ time: Double) -> Void
    private let notice: @Sendable (String) -> Void

    /// A watch with `settings`, reporting to `changed` and, once, a picture it cannot read to `notice`.
    package init(
        settings: MotionDetector.Settings, changed: @escaping @Sendable (_ isMotion: Bool, _ time: Double) -> Void,
        notice: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        state = Locked(State(detector: MotionDetector(settings: settings)))
        self.changed = changed
        self.notice = notice
    }

    /// Motion starts seen so far.
    package var starts: Int { state.withLock { $0.starts } }
    /// Whether there is motion now.
    package var isMotion: Bool { state.withLock { $0.detector.isMotion } }

    /// Looks at `frame` (YUV formats: plane 0 is luma; packed RGB is not read).
    package func observe(_ frame: VideoFrame) {
        let time = frame.pts.seconds
        let change: MotionDetector.Change? = state.withLock { state in
            switch frame.pixelFormat {
            case .yuv420p, .nv12, .yuv422p, .yuv444p:
                guard let luma = frame.planes.first else { return state.detector.expire(at: time) }
                let change = luma.withUnsafeBytes { bytes in
                    state.detector.analyze(
                        luma: bytes, width: frame.width, height: frame.height, bytesPerRow: luma.bytesPerRow, at: time)
                }
                if case .started = change { state.starts += 1 }
                return change
            case .bgra, .rgba, .rgb24:
                if !state.warnedFormat {
                    state.warnedFormat = true
                    notice("motion: the capture delivers \(frame.pixelFormat.rawValue), not YUV: no motion detection")
                }
                return nil
            }
        }
        switch change {
        case .started(let at)?: changed(true, at)
        case .ended(let at)?: changed(false, at)
        case nil: break
        }
    }
}
