import Foundation
import OnAirCore
#if canImport(OnAirFFmpeg)
import OnAirFFmpeg

/// The one muxer of a served container: packets from the encode go into libavformat writing to
/// memory, and what comes out for each packet is published to the hub as one chunk (keyframe
/// chunks marked), so every viewer shares the same bytes.
///
/// The stream starts at the first video keyframe once every stream has described itself (audio
/// from before that keyframe is left out); an MP4 fragment is closed after each video frame
/// (after each audio packet when there is no video).
public final class ServeMuxSink: PacketSink {
    public var destination: String { "serve \(format.rawValue)" }
    private let format: ServeFormat
    private let hub: ServeHub
    private let expected: Set<MediaType>
    private let output: MemoryOutput
    private let container: ContainerSink
    private var descriptions: [MediaType: FormatDescription] = [:]
    private var described: Set<MediaType> = []
    private var started = false
    private var headerSent = false
    private var keyframeOwed = false
    /// The decode time of the first video keyframe: audio from before it is not written, so no
    /// track starts earlier than the stream (an MP4 muxer fed a negative time writes broken
    /// durations and can abort on an assertion).
    private var startTime: MediaTime?

    /// A muxer of `format` for the given streams, publishing to `hub`.
    public init(format: ServeFormat, streams: Set<MediaType>, hub: ServeHub) throws {
        self.format = format
        self.hub = hub
        self.expected = streams
        output = try MemoryOutput()
        container = ContainerSink(destination: "serve \(format.rawValue)", format: format.muxer, streams: streams,
                                  options: format.muxerOptions, interleaved: false, output: output)
    }

    public func write(_ packet: EncodedPacket) throws {
        if let description = packet.formatDescription { descriptions[packet.mediaType] = description }
        if !started {
            guard expected.allSatisfy({ descriptions[$0] != nil }) else { return }
            if expected.contains(.video) && !(packet.mediaType == .video && packet.isKeyframe) { return }
            started = true
            if expected.contains(.video) { startTime = packet.dts }
        }
        if let startTime, packet.mediaType != .video, packet.dts < startTime { return }
        var forwarded = packet
        if !described.contains(packet.mediaType) {
            // The muxer learns each stream's configuration from its first packet.
            forwarded.formatDescription = descriptions[packet.mediaType]
            described.insert(packet.mediaType)
        }
        try container.write(forwarded)
        let isVideo = packet.mediaType == .video
        if isVideo && packet.isKeyframe { keyframeOwed = true }
        if format == .fragmentedMP4 {
            // One fragment per video frame; audio rides along in the next one.
            guard isVideo || !expected.contains(.video) else { return }
            try container.flush()
        }
        if !headerSent, let header = output.header {
            headerSent = true
            hub.setHeader(header, for: format)
        }
        let bytes = output.take()
        guard !bytes.isEmpty else { return }
        hub.publish(ServeChunk(bytes: bytes, isKeyframe: keyframeOwed || (!expected.contains(.video) && headerSent),
                               published: ProcessInfo.processInfo.systemUptime), to: format)
        keyframeOwed = false
    }

    public func finish() throws {
        try container.finish()
    }
}
#endif
