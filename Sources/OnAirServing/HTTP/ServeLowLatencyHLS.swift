#if os(Linux)
import Foundation

#if canImport(OnAirHTTP)
import OnAirHTTP
import OnAirStreaming

/// The Low-Latency HLS face of `onair serve`: the media playlists of the encodes written with
/// parts, answered from their `LowLatencyHLSFeed`.
package struct ServeLowLatencyHLS: Sendable {
    /// The feeds, by encode name (`ServeHub.main` for the main one).
    package let feeds: [String: LowLatencyHLSFeed]

    /// A face over `feeds`.
    package init(feeds: [String: LowLatencyHLSFeed]) {
        self.feeds = feeds
    }
}
#endif
#endif
