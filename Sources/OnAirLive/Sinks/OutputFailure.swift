import OnAirCore

/// One output that stopped working (disk full, I/O error, closed pipe) while the others carried on.
public struct OutputFailure: Sendable, CustomStringConvertible {
    /// The output's destination (path or URL), as the user named it.
    public var destination: String
    /// Why it failed, with the system's or FFmpeg's own message.
    public var error: any Error

    /// Describes a failed output.
    public init(destination: String, error: any Error) {
        self.destination = destination
        self.error = error
    }

    /// The reason alone.
    public var reason: String { "\(error)" }

    /// "DESTINATION: REASON" on one line.
    public var description: String { "\(destination): \(reason)" }
}
