#if os(Linux)
import CFFmpeg

/// Something libavformat may ask, from inside a blocking call, whether to give up now; the one
/// place that builds the `AVIOInterruptCB` for it. Its owner says when (`shouldInterrupt`, asked on
/// libavformat's thread, so it reads only Sendable state).
package final class InterruptCondition: Sendable {
    private let shouldInterrupt: @Sendable () -> Bool

    /// A condition that asks `shouldInterrupt`; true makes the pending call fail with `AVERROR_EXIT`.
    init(_ shouldInterrupt: @escaping @Sendable () -> Bool) {
        self.shouldInterrupt = shouldInterrupt
    }

    /// The libavformat callback structure pointing at this condition (unretained: valid while it lives).
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                return Unmanaged<InterruptCondition>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt() ? 1 : 0
            }, opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}
#endif
