#if os(Linux)
import Foundation
import OnAirCore

/// The elementary form of the hub: every encoded packet (H.264 or H.265), unmuxed, published as one chunk
/// (video keyframes marked), for faces that packetize themselves (RTSP). The stream starts at
/// the first video keyframe; the hub's keyframe cache, per-viewer queues, skips and timeouts
/// apply as for the muxed forms.
///
/// It also keeps each stream's latest format description (parameter sets, AudioSpecificConfig)
/// and the latest audio packet, which a face needs to describe the stream to a client that joins
/// later before that client takes a viewer slot.
package final class ServeElementarySink: PacketSink, Sendable {
    /// Names the sink in errors.
    public var destination: String { rendition == ServeHub.main ? "serve rtsp" : "serve rtsp \(rendition)" }
    private let hub: ServeHub
    /// The encode whose packets these are (`ServeHub.main`, or a further encode's name).
    package let rendition: String
    private let expected: Set<MediaType>
    /// The video codec of the encode (what the RTSP face payloads it with).
    package let codec: MediaCodec
    /// Whether RTP timestamps are the media time line itself (base 0), so that their wrap lands
    /// where `--timeline-start` puts it; else each track starts at a random base (RFC 3550).
    package let rtpTimestampsFromTimeline: Bool
    fileprivate struct State {
        var latest: [MediaType: FormatDescription] = [:]
        var latestAudio: EncodedPacket?
        var started = false
        var packetizers: [MediaType: RTPPacketizer] = [:]
        var clock: RTPStreamClock?
    }

    private let state = Locked(State())

    /// A sink of the given streams (video in `codec`) publishing to `hub`'s elementary stream.
    public init(
        streams: Set<MediaType>, hub: ServeHub, rendition: String = ServeHub.main, codec: MediaCodec = .h264,
        rtpTimestampsFromTimeline: Bool = false
    ) {
        self.rtpTimestampsFromTimeline = rtpTimestampsFromTimeline
        self.hub = hub
        self.rendition = rendition
        self.codec = codec
        expected = streams
    }

    /// The streams published.
    public var streams: Set<MediaType> { expected }

    /// The latest format description of a stream (nil before its first packet that carried one).
    public func formatDescription(of type: MediaType) -> FormatDescription? {
        state.withLock { $0.latest[type] }
    }

    /// The RTP packetizer of a stream as it stands (its parameter sets are the SDP's), nil before
    /// the stream's first packet.
    package func rtpTrack(_ type: MediaType) -> RTPPacketizer? {
        state.withLock { $0.packetizers[type] }
    }

    /// Where the streams' media time stood on the monotonic clock, for RTCP sender reports; nil
    /// before the first packet.
    package var rtpClock: RTPStreamClock? {
        state.withLock { $0.clock }
    }

    /// The latest audio packet written (nil before the first).
    public var latestAudioPacket: EncodedPacket? {
        state.withLock { $0.latestAudio }
    }

    /// Publishes a packet (from the first video keyframe on) and keeps what describes its stream.
    public func write(_ packet: EncodedPacket) throws {
        if packet.formatDescription != nil || packet.mediaType == .audio {
            state.withLock { state in
                if let description = packet.formatDescription { state.latest[packet.mediaType] = description }
                if packet.mediaType == .audio { state.latestAudio = packet }
            }
        }
        if packet.mediaType == .video, packet.form != .annexB(parameterSetsInBand: true) {
            throw SinkError.writeFailed(
                destination: destination, reason: "needs H.264 or H.265 as Annex-B with parameter sets in band, got \(packet.form)")
        }
        let expected = self.expected
        let fromTimeline = rtpTimestampsFromTimeline
        let now = hub.clock()
        let (starts, rtp) = state.withLock { state -> (Bool, [RTPPacket]) in
            if !state.started {
                if expected.contains(.video) && !(packet.mediaType == .video && packet.isKeyframe) { return (false, []) }
                state.started = true
            }
            if state.clock == nil { state.clock = RTPStreamClock(mediaTime: packet.pts, monotonic: now) }
            return (true, state.packetize(packet, fromTimeline: fromTimeline))
        }
        guard starts else { return }
        let isKeyframe = packet.mediaType == .video ? packet.isKeyframe : !expected.contains(.video)
        hub.publish(
            ServeChunk(bytes: packet.data, isKeyframe: isKeyframe, published: now, packet: packet, rtp: rtp),
            to: .elementary, rendition: rendition)
    }

    /// Nothing to finish: the hub ends its streams itself.
    public func finish() throws {}
}

/// Where a stream's media time line stood on the monotonic clock at its first packet: what an
/// RTSP server pairs a wall-clock time with a track's RTP timestamp by, in its sender reports.
/// One for all tracks of a stream, so that players align sound and picture by it.
package struct RTPStreamClock: Sendable, Hashable {
    /// The first packet's presentation time.
    package var mediaTime: MediaTime
    /// The monotonic clock (seconds) when it was published.
    package var monotonic: Double

    /// The media time the stream is at when the monotonic clock reads `now`.
    package func mediaTime(atMonotonic now: Double) -> MediaTime {
        MediaTime(value: mediaTime.converted(to: 90_000).value + Int64(((now - monotonic) * 90_000).rounded()), timescale: 90_000)
    }
}

extension ServeElementarySink.State {
    /// The packet as RTP by its track's packetizer (made at the track's first packet; AAC needs
    /// its AudioSpecificConfig first); empty when it cannot be packetized.
    fileprivate mutating func packetize(_ packet: EncodedPacket, fromTimeline: Bool) -> [RTPPacket] {
        if packetizers[packet.mediaType] == nil {
            let description = packet.formatDescription ?? latest[packet.mediaType]
            if packet.mediaType == .audio && description == nil { return [] }
            packetizers[packet.mediaType] = try? RTPPacketizer(
                codec: packet.codec, payloadType: packet.mediaType == .video ? 96 : 97, formatDescription: description,
                timestampBase: fromTimeline ? 0 : nil)
        }
        return (try? packetizers[packet.mediaType]?.packetize(packet)) ?? []
    }
}
#endif
