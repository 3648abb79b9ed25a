#if os(Linux)
import Foundation
import OnAirBitstream
import OnAirCore
import OnAirStreaming

/// What the multivariant playlist (`/index.m3u8`) says of one encode, learnt from its packets: the
/// codec strings from the latest format descriptions (`CodecString`: `hvc1.1.6.L93.B0`,
/// `avc1.42c01e`, `mp4a.40.2`), the picture size and frame rate from the SPS (the rate measured
/// when the SPS has no timing), and the peak bit rate over windows of a segment's duration (what HLS calls `BANDWIDTH`, with a tenth added for
/// the container). A sink beside the HLS writer; the server reads it from its own threads.
package final class ServeHLSVariant: PacketSink, Sendable {
    /// "hls variant", for messages.
    package var destination: String { "hls variant" }
    private struct State {
        var descriptions: [MediaType: FormatDescription] = [:]
        var windowStart: Double?
        var bytes = 0
        var frames = 0
        var peak: Int
        var frameRate: Double?
    }

    private let window: Double
    private let state: Locked<State>

    /// A variant measured over windows of `segmentDuration` seconds, `bitRate` until the first window ends.
    package init(segmentDuration: Double, bitRate: Int) {
        window = max(0.5, segmentDuration)
        state = Locked(State(peak: bitRate))
    }

    /// Notes the packet's description, size and time.
    package func write(_ packet: EncodedPacket) throws {
        let window = self.window
        state.withLock { state in
            if let description = packet.formatDescription { state.descriptions[packet.mediaType] = description }
            let time = packet.dts.seconds
            if let start = state.windowStart, time - start >= window {
                state.peak = max(state.peak, Int(Double(state.bytes * 8) * 1.1 / (time - start)))
                if state.frames > 1 { state.frameRate = Double(state.frames) / (time - start) }
                state.windowStart = time
                state.bytes = 0
                state.frames = 0
            } else if state.windowStart == nil {
                state.windowStart = time
            }
            state.bytes += packet.payload.count
            if packet.mediaType == .video { state.frames += 1 }
        }
    }

    /// Nothing to finish.
    package func finish() throws {}

    /// The variant at `uri`; nil before any stream has described itself.
    package func variant(uri: String) -> HLSMultivariantPlaylist.Variant? {
        let (descriptions, peak, frameRate) = state.withLock { ($0.descriptions, $0.peak, $0.frameRate) }
        let codecs = [MediaType.video, .audio].compactMap { descriptions[$0].flatMap(CodecString.of) }
        guard !codecs.isEmpty else { return nil }
        let picture = descriptions[.video].flatMap(Self.picture)
        return .init(
            uri: uri, bandwidth: peak, codecs: codecs, resolution: picture.map { ($0.width, $0.height) },
            frameRate: (picture?.frameRate ?? frameRate).map { ($0 * 1000).rounded() / 1000 })
    }

    /// Width, height and (from the VUI's timing, when given) frame rate from the SPS of an H.264 or H.265 description.
    static func picture(_ description: FormatDescription) -> (width: Int, height: Int, frameRate: Double?)? {
        switch description {
        case .h264(let sps, _):
            guard let first = sps.first, let parsed = try? H264SPS(H264NALUnit(first)) else { return nil }
            return (parsed.width, parsed.height, parsed.frameRate)
        case .h265(_, let sps, _):
            guard let first = sps.first, let parsed = try? HEVCSPS(HEVCNALUnit(first)) else { return nil }
            return (parsed.width, parsed.height, parsed.frameRate)
        default:
            return nil
        }
    }
}
#endif
