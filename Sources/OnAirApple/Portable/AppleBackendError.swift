import OnAirCore

/// A failure of the Apple backend: a framework call that returned an error status, or input the
/// backend cannot take. The message names the call and VideoToolbox's or AudioToolbox's status.
public struct AppleBackendError: OnAirError, Equatable {
    /// What failed, e.g. `VTCompressionSessionCreate`.
    public var operation: String
    /// The framework's `OSStatus`, when there is one.
    public var status: Int32?
    /// More detail, e.g. why hardware encoding did not open.
    public var detail: String

    /// Creates an error.
    public init(operation: String, status: Int32? = nil, detail: String = "") {
        self.operation = operation
        self.status = status
        self.detail = detail
    }

    /// The operation, its status and detail in one line.
    public var description: String {
        var text = operation + " failed"
        if let status { text += " (OSStatus \(status))" }
        if !detail.isEmpty { text += ": " + detail }
        return text
    }
}
