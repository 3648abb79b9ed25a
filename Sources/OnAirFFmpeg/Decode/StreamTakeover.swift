#if os(Linux)
/// Notices a stream that takes over from the one being decoded: a new program in a joined
/// MPEG-TS (the second recording's streams have other PIDs, and the first one's fall silent) or a
/// live multiplex whose program was replaced. A stream of the same kind is a candidate while the
/// current one says nothing; once the candidate has delivered `span` seconds of packets (video
/// from a keyframe) with no packet of the current stream among them, it takes over and its held
/// packets are handed back to be decoded, so nothing from its first keyframe on is lost. Streams
/// playing side by side (several programs at once) never take over: each packet of the current
/// stream starts the count again.
struct StreamTakeover {
    /// Seconds of the candidate's packets, with the current stream silent, before it takes over.
    var span = 0.5
    /// Packets held at most (a candidate that has not taken over by then starts again).
    var limit = 600

    private var candidate: Int?
    private var held: [MediaFileReader.Packet] = []
    private var first: Double?

    /// The current stream delivered a packet: it is alive, no candidate takes over.
    mutating func currentDelivered() {
        candidate = nil
        held.removeAll()
        first = nil
    }

    /// Offers a packet of another stream of the same kind; returns the held packets (this one the
    /// last) when its stream takes over.
    mutating func offer(_ packet: MediaFileReader.Packet, isVideo: Bool, hevc: Bool = false) -> [MediaFileReader.Packet]? {
        if packet.streamIndex != candidate {
            currentDelivered()
            candidate = packet.streamIndex
        }
        // Video can only start at a keyframe.
        if held.isEmpty, isVideo, !(packet.isKeyframe || MediaFileDecoder.startsDecoding(packet.data, hevc: hevc)) { return nil }
        held.append(packet)
        guard held.count <= limit else {
            held.removeAll()
            first = nil
            return nil
        }
        guard let time = packet.dts ?? packet.pts else { return nil }
        let start = first ?? time
        first = start
        guard time - start >= span else { return nil }
        let taken = held
        currentDelivered()
        return taken
    }
}
#endif
