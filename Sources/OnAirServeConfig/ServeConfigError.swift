#if os(Linux)
import OnAirCore

/// A configuration refused: where (file and line, or the environment variable) and which key.
/// Printed as `FILE:LINE: key 'K': reason`; the tool exits with status 2.
package struct ServeConfigError: OnAirError, Equatable {
    /// The file's path, or `environment ONAIR_…` for a value from the environment.
    public var source: String
    /// The line (1-based), when the value came from a file.
    public var line: Int?
    /// The key concerned, when there is one.
    public var key: String?
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(source: String, line: Int?, key: String?, reason: String) {
        self.source = source
        self.line = line
        self.key = key
        self.reason = reason
    }

    /// `FILE:LINE: key 'K': reason`.
    public var description: String {
        var text = source
        if let line { text += ":\(line)" }
        if let key { text += ": key '\(key)'" }
        return text + ": " + reason
    }

    /// True: a bad configuration is a usage mistake (exit status 2).
    public var isInvalidSettings: Bool { true }
}
#endif
