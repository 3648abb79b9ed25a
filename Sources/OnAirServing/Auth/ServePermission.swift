#if os(Linux)
/// What a user of `onair serve` may do.
public enum ServePermission: String, Sendable, CaseIterable, Hashable {
    /// Watch the live streams (HTTP, HLS, WHEP) and open the page and its statistics.
    case read
    /// Play recordings back.
    case playback
    /// Read `/metrics`.
    case metrics
    /// Reload, kick viewers and other administration.
    case admin
}
#endif
