/// A recording setting that cannot be used, named with the text given.
package enum RecordingSettingError: OnAirError, Equatable {
    /// Not a duration (seconds, or a number with s, m, h or d).
    case badDuration(String)
    /// Not a size (bytes, or a number with k, M, G or T).
    case badSize(String)
    /// A record path template that cannot name segments apart or be read back.
    case badTemplate(template: String, reason: String)
    /// A path name (`%path`) with characters that could leave the recordings' folder.
    case badPathName(String)

    /// The problem in words.
    public var description: String {
        switch self {
        case .badDuration(let text):
            return "'\(text)' is not a duration (seconds, or a number with s, m, h or d: 30s, 10m, 1h, 7d)"
        case .badSize(let text):
            return "'\(text)' is not a size (bytes, or a number with k, M, G or T, powers of 1000: 500M, 2G)"
        case let .badTemplate(template, reason):
            return "record path '\(template)': \(reason)"
        case .badPathName(let name):
            return "'\(name)' is not a usable path name (letters, digits, - _ . and / between names)"
        }
    }

    /// Every case rejects the caller's settings.
    public var isInvalidSettings: Bool { true }
}
