#if os(Linux)
/// The options OnAir sets on an SRT socket before it connects or listens.
///
/// `nil` leaves libsrt's default. A listener's options are inherited by the sockets it accepts.
package struct SRTSocketOptions: Sendable, Equatable, Codable {
    /// Transmission type (`SRTO_TRANSTYPE`); set first, since it resets the others to its defaults.
    package var transmissionType: SRTTransmissionType = .live
    /// Receiver (and peer) latency in milliseconds (`SRTO_LATENCY`; libsrt's default is 120).
    package var latencyMilliseconds: Int32?
    /// Encryption passphrase, 10–79 characters (`SRTO_PASSPHRASE`).
    package var passphrase: String?
    /// AES key length in bytes: 16, 24 or 32 (`SRTO_PBKEYLEN`).
    package var keyLength: Int32?
    /// The stream id a caller sends to the listener (`SRTO_STREAMID`, at most 512 bytes).
    package var streamID: String?
    /// Largest payload of one message in bytes (`SRTO_PAYLOADSIZE`; 1316 in live mode = 7 TS packets).
    package var payloadSize: Int32?
    /// Send buffer size in bytes (`SRTO_SNDBUF`).
    package var sendBufferBytes: Int32?
    /// Receive buffer size in bytes (`SRTO_RCVBUF`).
    package var receiveBufferBytes: Int32?
    /// Whether packets too late to play are dropped (`SRTO_TLPKTDROP`).
    package var tooLatePacketDrop: Bool?
    /// Extra sender-side delay before a too-late packet is dropped, in ms; -1 turns it off (`SRTO_SNDDROPDELAY`).
    package var sendDropDelayMilliseconds: Int32?
    /// Whether `send` blocks until the message is in the send buffer (`SRTO_SNDSYN`).
    package var sendBlocking: Bool?
    /// Whether `receive`, `accept` and `connect` block (`SRTO_RCVSYN`).
    package var receiveBlocking: Bool?
    /// How long a blocking send waits, in ms; -1 waits forever (`SRTO_SNDTIMEO`).
    package var sendTimeoutMilliseconds: Int32?
    /// How long a blocking receive waits, in ms; -1 waits forever (`SRTO_RCVTIMEO`).
    package var receiveTimeoutMilliseconds: Int32?
    /// How long the peer may stay silent before the connection is broken, in ms (`SRTO_PEERIDLETIMEO`).
    package var peerIdleTimeoutMilliseconds: Int32?
    /// Ceiling on the sending rate in bytes per second; 0 = relative to input, -1 = unlimited (`SRTO_MAXBW`).
    package var maxBandwidthBytesPerSecond: Int64?
    /// Expected input rate in bytes per second, 0 = measure it (`SRTO_INPUTBW`).
    package var inputBandwidthBytesPerSecond: Int64?
    /// Overhead over the input rate allowed for retransmissions, in percent (`SRTO_OHEADBW`).
    package var overheadBandwidthPercent: Int32?
    /// Whether a connection with a mismatched passphrase is refused outright (`SRTO_ENFORCEDENCRYPTION`).
    package var enforcedEncryption: Bool?

    /// Options with libsrt's defaults in live mode.
    package init() {}
}
#endif
