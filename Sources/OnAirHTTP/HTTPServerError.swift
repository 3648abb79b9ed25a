#if os(Linux)
import OnAirCore

/// Why the HTTP server could not start.
package struct HTTPServerError: OnAirError {
    /// What failed, with libmicrohttpd's or the system's message.
    package var description: String
    /// Whether the caller's settings were rejected (an address that does not parse, a bad limit).
    package var isInvalidSettings: Bool

    /// Creates an error with its message.
    package init(_ description: String, isInvalidSettings: Bool = false) {
        self.description = description
        self.isInvalidSettings = isInvalidSettings
    }
}
#endif
