#if os(Linux)
import CGStreamer

/// The pipeline gst-rtsp-server built for one client (the media is not shared): its sources,
/// to be fed with that client's packets, and the client it belongs to.
package struct RTSPClientMedia: Sendable {
    /// Tells medias apart while they live.
    package let identifier: UInt
    /// The `appsrc name=video` of the pipeline, if it has one.
    package let video: GStreamerAppSource?
    /// The `appsrc name=audio` of the pipeline, if it has one.
    package let audio: GStreamerAppSource?
    /// The client that asked for it (nil when gst-rtsp-server built it outside a request).
    package let client: RTSPClientHandle?
    /// The client's IP address.
    package let peer: String
    /// The served path the media was built for ("/live").
    package let path: String
    /// The media itself, held while this value lives.
    let media: RTSPMediaReference?

    /// How many destinations the media's streams send to now: one per stream once the client
    /// PLAYs; fewer when gst-rtsp-server dropped a TCP transport it found too slow (it tells the
    /// client nothing, and the connection stays open with nothing more sent on it).
    package var transports: Int { media?.transports ?? 0 }
}

/// A reference of its own to a `GstRTSPMedia`.
final class RTSPMediaReference: Sendable {
    private let media: GStreamerPointer

    /// Takes a reference to a media the shim lends.
    init(borrowing media: UnsafeMutableRawPointer) {
        onair_gst_object_ref(media)
        self.media = GStreamerPointer(media)
    }

    var transports: Int { Int(onair_rtsp_media_transports(media.raw)) }

    deinit {
        onair_gst_object_unref(media.raw)
    }
}
#endif
