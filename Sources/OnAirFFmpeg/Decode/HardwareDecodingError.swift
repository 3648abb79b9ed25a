#if os(Linux)
/// Hardware decoding that was asked for by name and cannot be had.
package struct HardwareDecodingError: Error, CustomStringConvertible, Equatable {
    /// What was asked for and why it cannot be had.
    package let description: String
}
#endif
