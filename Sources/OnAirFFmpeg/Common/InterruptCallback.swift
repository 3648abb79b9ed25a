#if os(Linux)
import CFFmpeg

/// Something libavformat may ask, from inside a blocking call, whether to give up now; the one
/// place that builds the `AVIOInterruptCB` for it. Subclasses say when (`shouldInterrupt`).
package class InterruptCondition: @unchecked Sendable {
    init() {}

    /// True to make the pending libavformat call fail with `AVERROR_EXIT`.
    var shouldInterrupt: Bool { false }

    /// The libavformat callback structure pointing at this condition (unretained: valid while it lives).
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                return Unmanaged<InterruptCondition>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt ? 1 : 0
            }, opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}
#endif
