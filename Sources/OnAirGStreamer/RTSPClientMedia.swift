/// The pipeline gst-rtsp-server built for one client (the media is not shared): its sources,
/// to be fed with that client's packets, and the client it belongs to.
public struct RTSPClientMedia: Sendable {
    /// Tells medias apart while they live.
    public let identifier: UInt
    /// The `appsrc name=video` of the pipeline, if it has one.
    public let video: GStreamerAppSource?
    /// The `appsrc name=audio` of the pipeline, if it has one.
    public let audio: GStreamerAppSource?
    /// The client that asked for it (nil when gst-rtsp-server built it outside a request).
    public let client: RTSPClientHandle?
    /// The client's IP address.
    public let peer: String
}
