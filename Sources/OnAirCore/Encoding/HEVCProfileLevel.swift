/// An H.265 profile with the level left to the encoder, named as VideoToolbox names its
/// `kVTProfileLevel_HEVC_…` constants (VideoToolbox has no fixed HEVC levels either).
public enum HEVCProfileLevel: String, Sendable, Codable, Hashable, CaseIterable, CustomStringConvertible {
    /// Main (8-bit 4:2:0) at the smallest level that fits: what OnAir encodes.
    case mainAutoLevel = "HEVC_Main_AutoLevel"
    /// Main 10 (10-bit 4:2:0): refused by `VideoEncoderSettings.validate()` for now.
    case main10AutoLevel = "HEVC_Main10_AutoLevel"

    /// Why Main 10 is refused: what `validate()` says.
    static let main10Refusal =
        "HEVC_Main_AutoLevel (Main 10 needs 10-bit pictures from capture to every face; OnAir's sources, "
        + "frame pool and players carry 8-bit 4:2:0 only, so a Main 10 stream would be 8-bit content in a "
        + "10-bit container that some players refuse)"

    /// The profile from a name as the tool takes it: `main`, `main10` or VideoToolbox's full name.
    public init?(name: String) {
        switch name.lowercased() {
        case "main", "hevc_main_autolevel": self = .mainAutoLevel
        case "main10", "main 10", "hevc_main10_autolevel": self = .main10AutoLevel
        default: return nil
        }
    }

    /// The profile's name as libx265 and FFmpeg's `-profile:v` take it.
    public var profileName: String { self == .mainAutoLevel ? "main" : "main10" }

    /// VideoToolbox's name.
    public var description: String { rawValue }
}
