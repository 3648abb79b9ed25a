#if os(Linux)
/// What a reload changes: the keys whose effective values differ between the running
/// configuration and the re-read one, split into those applied live without touching viewers,
/// those applied by restarting the video encode (viewers go on from its first keyframe), and
/// those that need a restart of the server.
public struct ServeConfigReload: Sendable, Equatable {
    /// The keys a reload applies while serving.
    public static let live = Set(["max-viewers", "viewer-timeout", "bitrate", "data-rate-limit", "token", "users"])
        .union(recording)
    /// Of those, the recording's keys (applied by `Session.reloadRecording`; the path template and
    /// the format decide where and how files are written, and need a restart).
    public static let recording: Set<String> = [
        "record-segment-duration", "record-part-duration", "record-delete-after", "record-max-size",
        "record-min-free", "record-clock-sync", "on-segment-complete",
    ]
    /// The keys a reload applies by restarting the video encode (a new encoder whose first frame
    /// is a keyframe, on the same connections): picture size, frame rate, codec settings.
    public static let encode: Set<String> = [
        "video", "size", "fps", "keyint", "keyint-duration", "profile", "level", "encoder", "preset", "realtime",
    ]
    /// Of those, the keys that also reopen the capture (the video source, or its size or rate).
    public static let capture: Set<String> = ["video", "size", "fps"]
    /// Changed keys applied live, in table order.
    public let applied: [String]
    /// Changed keys that restart the encode, each as `KEY BEFORE → AFTER`, in table order.
    public let restartEncode: [String]
    /// Whether the capture is reopened too (`capture` keys changed).
    public let restartCapture: Bool
    /// Changed keys that need a restart, in table order.
    public let needRestart: [String]

    /// The plan from `old` to `new`.
    public init(from old: ServeConfigResolution, to new: ServeConfigResolution) {
        var applied: [String] = []
        var needRestart: [String] = []
        var restartEncode: [String] = []
        var restartCapture = false
        for key in ServeConfigKey.all {
            let before = old.settings[key.name], after = new.settings[key.name]
            guard before?.values != after?.values || before?.node != after?.node else { continue }
            if Self.live.contains(key.name) {
                applied.append(key.name)
            } else if Self.encode.contains(key.name) {
                if Self.capture.contains(key.name) { restartCapture = true }
                // None of these is a secret: the values may be logged.
                let shown = { (setting: ServeConfigResolution.Setting?) in
                    setting.map { $0.values.joined(separator: ",") } ?? key.defaultText ?? "default"
                }
                restartEncode.append("\(key.name) \(shown(before)) → \(shown(after))")
            } else {
                needRestart.append(key.name)
            }
        }
        self.applied = applied
        self.needRestart = needRestart
        self.restartEncode = restartEncode
        self.restartCapture = restartCapture
    }

    /// One line for the log: what was applied and what waits for a restart (names only, no values).
    public var summary: String {
        if applied.isEmpty && needRestart.isEmpty && restartEncode.isEmpty { return "nothing changed" }
        var parts: [String] = []
        if !applied.isEmpty { parts.append("applied " + applied.joined(separator: ", ")) }
        if !restartEncode.isEmpty { parts.append("restarted the encode for: " + restartEncode.joined(separator: ", ")) }
        if !needRestart.isEmpty { parts.append("needs a restart (not applied): " + needRestart.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }
}
#endif
