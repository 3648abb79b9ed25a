/// An H.264 profile plus a fixed level, or `nil` level for the smallest that fits (VideoToolbox's `_AutoLevel`).
public struct H264ProfileLevel: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The profile.
    public var profile: H264ProfileLevel.Profile
    /// The level, or nil to pick the smallest one that fits the settings.
    public var level: H264ProfileLevel.Level?

    /// Creates a profile/level pair; a nil level means automatic.
    public init(_ profile: H264ProfileLevel.Profile, _ level: H264ProfileLevel.Level? = nil) {
        self.profile = profile
        self.level = level
    }

    /// `profile` at the smallest level that fits.
    public static func auto(_ profile: H264ProfileLevel.Profile) -> H264ProfileLevel { H264ProfileLevel(profile, nil) }

    /// The profile and level as text, e.g. "high@4.1" or "main@auto".
    public var description: String { "\(profile)@\(level.map { "\($0)" } ?? "auto")" }
}
