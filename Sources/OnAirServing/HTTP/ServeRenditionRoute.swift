#if os(Linux)
#if canImport(OnAirHTTP)
/// Where a request for a further encode's stream goes (a sub stream named `sub`): `/sub.ts`,
/// `/sub.mp4`, `/sub.m3u8` and its segments `/sub/segment_N.ts`, `/sub/snapshot.jpg`. The main
/// encode's paths (`/live.ts`, …) are not routes of this kind.
package enum ServeRenditionRoute: Equatable, Sendable {
    /// A continuous stream of the rendition in a container.
    case stream(rendition: String, format: ServeFormat)
    /// The rendition's live HLS playlist.
    case playlist(rendition: String)
    /// One of its HLS segments (`segment_N.ts`).
    case segment(rendition: String, name: String)
    /// Its latest keyframe as a JPEG.
    case snapshot(rendition: String)

    /// The route of a path's segments (already checked by `HTTPPath`), or nil when the path names
    /// none of `renditions` (the further encodes' names).
    package init?(_ segments: [String], renditions: [String]) {
        switch segments.count {
        case 1:
            let name = segments[0]
            for rendition in renditions {
                switch name {
                case rendition + ".ts": self = .stream(rendition: rendition, format: .mpegTS)
                case rendition + ".mp4": self = .stream(rendition: rendition, format: .fragmentedMP4)
                case rendition + ".m3u8": self = .playlist(rendition: rendition)
                default: continue
                }
                return
            }
            return nil
        case 2 where renditions.contains(segments[0]):
            if segments[1] == "snapshot.jpg" {
                self = .snapshot(rendition: segments[0])
            } else if ServeServer.isSegmentName(segments[1]) {
                self = .segment(rendition: segments[0], name: segments[1])
            } else {
                return nil
            }
        default:
            return nil
        }
    }
}
#endif
#endif
