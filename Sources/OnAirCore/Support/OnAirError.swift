/// An error that names what went wrong in words a user can act on.
///
/// Every module's typed errors conform, so the command-line tool can print one line for any failure.
public protocol OnAirError: Error, CustomStringConvertible, Sendable {
    /// Whether the error rejects the caller's settings (the tool exits with status 2, as for usage mistakes).
    var isInvalidSettings: Bool { get }
}

extension OnAirError {
    /// False: an error rejects the settings only when its type says so.
    public var isInvalidSettings: Bool { false }
}
