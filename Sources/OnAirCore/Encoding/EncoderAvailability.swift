/// One H.264 or AAC encoder the platform knows, and whether it opens on this machine.
public struct EncoderAvailability: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The encoder's name, e.g. `libx264` or `h264_vaapi`.
    public let name: String
    /// Its descriptive name.
    public let longName: String
    /// What it produces.
    public let codec: MediaCodec
    /// Whether it runs on dedicated hardware.
    public let isHardware: Bool
    /// Whether it opened with a small default setting.
    public let opens: Bool
    /// Why it did not open (the library's own message), nil when it did.
    public let reason: String?

    /// Creates an entry.
    public init(name: String, longName: String, codec: MediaCodec, isHardware: Bool, opens: Bool, reason: String?) {
        self.name = name
        self.longName = longName
        self.codec = codec
        self.isHardware = isHardware
        self.opens = opens
        self.reason = reason
    }

    /// One line naming the encoder and whether it opens (with the reason when it does not).
    public var description: String {
        "\(name) (\(codec.rawValue)\(isHardware ? ", hardware" : "")): " + (opens ? "available" : "unavailable — \(reason ?? "")")
    }

    enum CodingKeys: String, CodingKey {
        case name, codec, opens, reason
        case longName = "long_name", isHardware = "hardware"
    }
}
