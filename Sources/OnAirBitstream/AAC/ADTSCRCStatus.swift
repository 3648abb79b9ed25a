/// The outcome of checking an ADTS frame's CRC words.
public enum ADTSCRCStatus: Sendable, Equatable {
    /// The frame has no CRC (protection_absent is 1).
    case absent
    /// Every CRC word matches the protected bits.
    case valid
    /// At least one CRC word does not match: the protected bits were damaged.
    case mismatch
    /// The CRC cannot be checked: the bytes are not one complete frame, or the protected bits
    /// cannot be located (see `ADTS.crcStatus(frame:)`); the reason says which.
    case unverifiable(String)
}
