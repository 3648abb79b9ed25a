import OnAirLive

#if canImport(OnAirStreaming)
import OnAirStreaming
#endif

/// Something a running session reports: once-a-second statistics, an output that failed, a
/// connection made or lost, a bitrate change, a viewer that came or went, a notice, the stop.
public enum SessionEvent: Sendable {
    /// The statistics of the last second (rates) and since the start (totals).
    case statistics(LiveStatistics)
    /// An output failed and was left behind; the others carry on.
    case outputFailed(OutputFailure)
    /// A network output's connection changed (connected, lost, reconnected, could not finish).
    case connection(destination: String, event: ConnectionChange)
    /// Adaptive bitrate changed the video bitrate.
    case bitRateChanged(BitrateDecision)
    /// A viewer joined or left a served stream.
    case viewer(ViewerEvent)
    /// A live control was clamped or refused, or another remark worth a line.
    case notice(String)
    /// The wall clock stepped (forward when positive): names follow it, while recording starts,
    /// `/list` and retention ages keep to the anchored time line (docs/serving.md, "Clocks").
    case clockStepped(by: Duration)
    /// Motion started (`isMotion`) or ended (`SessionSettings.motion`) at this capture time.
    case motion(isMotion: Bool, at: Duration)
    /// The session stopped (the last event: every output is finished and the streams end).
    case stopped(Session.StopReason)
}
