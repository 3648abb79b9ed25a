/// How an audio encoder keeps the samples it has counted on its input's timestamps.
///
/// An encoder stamps its output by counting samples; its input carries capture-clock timestamps.
/// When the two disagree by `error` samples (input time minus counted time), the encoder corrects
/// as capture tools do: a hole (error above `hardThreshold`) becomes that much silence; an overlap
/// (error below −`hardThreshold`) is cut from the incoming samples; a small, slowly growing error
/// (a device whose sample clock drifts against the capture clock) is absorbed by resampling,
/// stretching or squeezing at most `maximumStretch` so the pitch change cannot be heard; an error
/// beyond `maximumGap` (a clock reset) is not filled: the output continues without a gap and later
/// inputs are measured from the input's new time.
package struct AudioTimingCorrection: Sendable, Equatable {
    /// Largest mismatch, in seconds, absorbed by resampling; larger ones insert silence or cut samples.
    public var hardThreshold: Double
    /// Mismatch, in seconds, below which nothing is corrected (timestamp rounding).
    public var deadband: Double
    /// Seconds of output over which a soft correction is spread.
    public var window: Double
    /// The largest fraction by which resampling stretches or squeezes (0.005 = 0.5 %).
    public var maximumStretch: Double
    /// A jump longer than this many seconds is not filled: later inputs are measured from their new time.
    public var maximumGap: Double

    /// The defaults: holes and overlaps over 40 ms are filled or cut, smaller mismatches over
    /// 1 ms are resampled away within about a second (at most 0.5 %), and a jump of more than
    /// a minute is taken as a clock reset.
    public init(
        hardThreshold: Double = 0.04, deadband: Double = 0.001, window: Double = 1,
        maximumStretch: Double = 0.005, maximumGap: Double = 60
    ) {
        self.hardThreshold = hardThreshold
        self.deadband = deadband
        self.window = window
        self.maximumStretch = maximumStretch
        self.maximumGap = maximumGap
    }

    /// What to do before encoding the next input.
    public enum Action: Sendable, Equatable {
        /// Nothing: the input is where the count expects it.
        case none
        /// Insert this many samples of silence, then the input.
        case insertSilence(samples: Int64)
        /// Leave out this many samples from the start of the input.
        case drop(samples: Int64)
        /// Resample the next `distance` samples into `distance + delta`.
        case stretch(delta: Int, distance: Int)
        /// The input's clock jumped: continue without a gap, measuring from the input's new time.
        case restart
    }

    /// The action for an input that starts `error` samples (at `sampleRate`) later than counted;
    /// `stretching` says whether a soft correction is under way (it is then updated even inside
    /// the deadband, so it settles instead of overshooting).
    public func action(error: Int64, sampleRate: Int, stretching: Bool) -> Action {
        let rate = Double(max(sampleRate, 1))
        let seconds = Double(error) / rate
        if abs(seconds) > maximumGap { return .restart }
        if seconds > hardThreshold { return .insertSilence(samples: error) }
        if seconds < -hardThreshold { return .drop(samples: -error) }
        guard stretching || abs(seconds) > deadband else { return .none }
        let distance = max(1, Int((window * rate).rounded()))
        let limit = Int((Double(distance) * maximumStretch).rounded(.down))
        return .stretch(delta: Int(min(max(error, Int64(-limit)), Int64(limit))), distance: distance)
    }
}
