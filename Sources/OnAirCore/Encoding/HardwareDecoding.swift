/// Which hardware, if any, decodes video: FFmpeg's `-hwaccel` choices.
public enum HardwareDecoding: Sendable, Equatable {
    /// Try every hardware device type the decoder supports, in FFmpeg's order; software if none opens.
    case automatic
    /// Software decoding only.
    case none
    /// Only this device type (`vaapi`, `cuda`, `vdpau`, `videotoolbox`, `qsv`, …); failing to open it is an error.
    case only(String)

    /// FFmpeg's hardware device type names.
    public static let deviceTypes: Set<String> = [
        "vdpau", "cuda", "vaapi", "dxva2", "qsv", "videotoolbox", "d3d11va",
        "drm", "opencl", "mediacodec", "vulkan",
    ]

    /// Parses an `--hwaccel` value: `auto`, `none` or a device type name (not checked: see `deviceTypes`).
    public init(_ text: String) {
        switch text.lowercased() {
        case "auto": self = .automatic
        case "none", "no", "off": self = .none
        default: self = .only(text.lowercased())
        }
    }
}
