/// What became of hardware decoding for one decoder.
package struct HardwareDecodingOutcome: Sendable, Equatable {
    /// No hardware, nothing tried.
    public init() {}
    /// The device type that decodes ("vaapi"), or nil for software.
    public var device: String?
    /// Each device type tried and why it did not open ("vaapi: no /dev/dri/renderD* render node").
    public var unavailable: [String] = []
}
