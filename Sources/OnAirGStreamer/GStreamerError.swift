#if os(Linux)
import OnAirCore

/// A GStreamer failure, with GStreamer's own message where it gave one.
package enum GStreamerError: OnAirError, Equatable {
    /// `gst_init` failed (no plugins, a broken registry).
    case initialization(String)
    /// A required element (plugin) is not installed.
    case missingElement(String)
    /// Caps text GStreamer could not parse.
    case invalidCaps(String)
    /// A WebRTC peer could not be built or negotiated (webrtcbin's message).
    case webRTC(String)

    /// The failure in words, with GStreamer's message.
    package var description: String {
        switch self {
        case .initialization(let message): return "GStreamer did not start: \(message)"
        case .missingElement(let name): return "the GStreamer element \(name) is not installed"
        case .invalidCaps(let caps): return "GStreamer refused the caps \(caps)"
        case .webRTC(let message): return "WebRTC: \(message)"
        }
    }
}
#endif
