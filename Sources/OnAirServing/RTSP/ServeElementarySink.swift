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
    private struct State {
        var latest: [MediaType: FormatDescription] = [:]
        var latestAudio: EncodedPacket?
        var started = false
    }

    private let state = Locked(State())

    /// A sink of the given streams (video in `codec`) publishing to `hub`'s elementary stream.
    public init(streams: Set<MediaType>, hub: ServeHub, rendition: String = ServeHub.main, codec: MediaCodec = .h264) {
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
        let starts = state.withLock { state in
            if !state.started {
                if expected.contains(.video) && !(packet.mediaType == .video && packet.isKeyframe) { return false }
                state.started = true
            }
            return true
        }
        guard starts else { return }
        let isKeyframe = packet.mediaType == .video ? packet.isKeyframe : !expected.contains(.video)
        hub.publish(
            ServeChunk(
                bytes: packet.data, isKeyframe: isKeyframe,
                published: ProcessInfo.processInfo.systemUptime, packet: packet), to: .elementary, rendition: rendition)
    }

    /// Nothing to finish: the hub ends its streams itself.
    public func finish() throws {}
}
#endif
