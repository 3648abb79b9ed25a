/// Where encoded packets go: a file, a container, a network connection.
///
/// One encode feeds every sink. A sink is driven from one thread or queue at a time; `finish()`
/// completes the output (trailer, index, flush) and is called exactly once, after the last packet.
package protocol PacketSink: AnyObject {
    /// A short human-readable name of the destination, for progress lines and errors.
    var destination: String { get }
    /// Takes one packet. Packets of one stream arrive in decoding order.
    func write(_ packet: EncodedPacket) throws
    /// Completes the output.
    func finish() throws
}
