#if os(Linux)
import OnAirLive

extension ServeHub {
    /// A viewer that joined or left, for the session's events (OnAirLive's `ViewerEvent`).
    public typealias ViewerEvent = OnAirLive.ViewerEvent
    /// Totals since the start (OnAirLive's `ViewerTotals`).
    public typealias Totals = ViewerTotals
}
#endif
