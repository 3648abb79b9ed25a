/// What a reload changes: the keys whose effective values differ between the running
/// configuration and the re-read one, split into those applied live without touching viewers
/// and those that need a restart.
public struct ServeConfigReload: Sendable, Equatable {
    /// The keys a reload applies while serving.
    public static let live: Set<String> = ["max-viewers", "viewer-timeout", "bitrate", "data-rate-limit", "token", "users"]
    /// Changed keys applied live, in table order.
    public let applied: [String]
    /// Changed keys that need a restart, in table order.
    public let needRestart: [String]

    /// The plan from `old` to `new`.
    public init(from old: ServeConfigResolution, to new: ServeConfigResolution) {
        var applied: [String] = []
        var needRestart: [String] = []
        for key in ServeConfigKey.all {
            let before = old.settings[key.name], after = new.settings[key.name]
            guard before?.values != after?.values || before?.node != after?.node else { continue }
            if Self.live.contains(key.name) { applied.append(key.name) } else { needRestart.append(key.name) }
        }
        self.applied = applied
        self.needRestart = needRestart
    }

    /// One line for the log: what was applied and what waits for a restart (names only, no values).
    public var summary: String {
        if applied.isEmpty && needRestart.isEmpty { return "nothing changed" }
        var parts: [String] = []
        if !applied.isEmpty { parts.append("applied " + applied.joined(separator: ", ")) }
        if !needRestart.isEmpty { parts.append("needs a restart (not applied): " + needRestart.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }
}
