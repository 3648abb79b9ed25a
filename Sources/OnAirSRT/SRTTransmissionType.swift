#if os(Linux)
/// libsrt's transmission type (`SRTO_TRANSTYPE`): live media or file transfer.
package enum SRTTransmissionType: String, Sendable, Equatable, Codable {
    /// Live mode: message boundaries, timestamp-based delivery, too-late packet drop.
    case live
    /// File mode: a byte stream with congestion control, no deadline.
    case file
}
#endif
