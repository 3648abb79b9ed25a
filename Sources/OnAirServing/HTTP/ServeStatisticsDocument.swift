#if os(Linux)
import OnAirLive

/// What `GET /stats.json` answers: the encoder's figures, the totals and one entry per viewer.
package struct ServeStatisticsDocument: Sendable, Codable {
    /// The session's latest once-a-second figures (nil before the first).
    public var encoder: LiveStatistics?
    /// Viewers now, since the start and the most at once (`peak_viewers`).
    public var totals: ServeHub.Totals
    /// HTTP requests cut because their header took too long.
    public var requestsTimedOut: Int
    /// Messages libmicrohttpd gave (refused requests, socket errors) since the start.
    public var httpMessages: Int
    /// The last 16 of those messages, oldest first.
    public var recentHTTPMessages: [String]
    /// One entry per viewer served now.
    public var viewers: [ServeViewerStatistics]
    /// One entry per WebRTC (WHEP) viewer served now (nil without the WebRTC face).
    public var webrtcViewers: [WebRTCViewerStatistics]? = nil
}
#endif
