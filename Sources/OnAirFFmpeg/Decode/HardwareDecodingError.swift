#if os(Linux)
/// Hardware decoding that was asked for by name and cannot be had.
public struct HardwareDecodingError: Error, CustomStringConvertible, Equatable {
    /// What was asked for and why it cannot be had.
    public let description: String
}
#endif
