/// Encoder settings were rejected: names the field, the offending value and what is allowed.
public struct SettingsError: OnAirError, Equatable {
    /// The settings field at fault, e.g. `averageBitRate`.
    public let field: String
    /// The rejected value as text.
    public let value: String
    /// The allowed range or rule, e.g. `1…8`.
    public let allowed: String

    /// Creates an error for `field` holding `value` outside `allowed`.
    public init(field: String, value: String, allowed: String) {
        self.field = field
        self.value = value
        self.allowed = allowed
    }

    /// The field, the value given and what is allowed, in one line.
    public var description: String { "invalid \(field) = \(value); allowed: \(allowed)" }

    /// Always true: the caller's settings are at fault.
    public var isInvalidSettings: Bool { true }
}
