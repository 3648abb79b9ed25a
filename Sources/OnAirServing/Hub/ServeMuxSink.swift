#if os(Linux)
import Foundation
import OnAirCore

#if canImport(OnAirFFmpeg)
import OnAirFFmpeg

/// The one muxer of a served container: packets from the encode go into libavformat writing to
/// memory, and what comes out for each packet is published to the hub as one chunk (keyframe
/// chunks marked), so every viewer shares the same bytes.
///
/// The stream starts at the first video keyframe once every stream has described itself; an MP4
/// fragment is closed after each video frame (after each audio packet when there is no video).
///
/// MP4 packets are held back by one per stream, so each sample's duration is exactly the gap to
/// the next one in the track's own time scale: a fragment's end then meets the next fragment's
/// start, which libavformat's fragmenting requires (nominal durations longer than the real gap
/// would make it rewrite timestamps, and abort on the next flush).
///
/// libavformat's MP4 muxer keeps an index entry (40 bytes) for every fragment of every track, for
/// the `mfra` of a trailer a live stream never writes: one muxer for the whole serve would grow
/// by ~2.3 KB/s at one fragment per frame (heaptrack, an idle `onair serve`: 876 KB in 374 s,
/// all of the live heap's growth). So after `fragmentsPerMuxer` fragments the next keyframe
/// starts a fresh muxer whose fragments go on from the same times (`frag_discont`: each track's
/// decode time taken from its first packet) behind the same init segment, which is checked
/// byte for byte; fragment positions are relative to their own `moof` (`default_base_moof`), so
/// the byte stream a viewer gets stays one continuous fMP4 stream.
package final class ServeMuxSink: PacketSink {
    /// "serve" and the container format, for progress lines and errors.
    public var destination: String { rendition == ServeHub.main ? "serve \(format.rawValue)" : "serve \(rendition).\(format.rawValue)" }
    private let format: ServeFormat
    /// The encode whose stream this is (`ServeHub.main`, or a further encode's name).
    private let rendition: String
    private let hub: ServeHub
    private let expected: Set<MediaType>
    private var output: MemoryOutput
    private var container: ContainerSink
    private let fragmentsPerMuxer: Int
    private var fragments = 0
    /// The init segment every muxer must write (set when a muxer was replaced).
    private var expectedHeader: [UInt8]?
    /// Fresh muxers started so far (fMP4; see the type's comment).
    package private(set) var muxersReplaced = 0
    private var descriptions: [MediaType: FormatDescription] = [:]
    private var described: Set<MediaType> = []
    private var started = false
    private var headerSent = false
    private var keyframeOwed = false
    private var heldBack = SampleHoldBack()
    /// MP4: the first keyframe's decode time; earlier packets are left out and times start at 0 there.
    private var origin: Double?

    /// A muxer of `format` for the given streams, publishing to `hub`; an fMP4 muxer is replaced
    /// at the first keyframe after `fragmentsPerMuxer` fragments (1800: a minute at 30 fps).
    public init(
        format: ServeFormat, streams: Set<MediaType>, hub: ServeHub, rendition: String = ServeHub.main, fragmentsPerMuxer: Int = 1800
    ) throws {
        self.format = format
        self.rendition = rendition
        self.hub = hub
        self.expected = streams
        self.fragmentsPerMuxer = max(1, fragmentsPerMuxer)
        output = try MemoryOutput()
        container = Self.container(format: format, streams: streams, output: output, continuing: false)
    }

    private static func container(
        format: ServeFormat, streams: Set<MediaType>, output: MemoryOutput, continuing: Bool
    ) -> ContainerSink {
        var options = format.muxerOptions
        if continuing, let flags = options["movflags"] { options["movflags"] = flags + "+frag_discont" }
        return ContainerSink(
            destination: "serve \(format.rawValue)", format: format.muxer, streams: streams,
            options: options, interleaved: false, output: output)
    }

    /// Muxes one encoded packet into the shared stream the hub hands to viewers.
    public func write(_ packet: EncodedPacket) throws {
        if let description = packet.formatDescription {
            // A restarted encode (a reload's new size or codec settings): MPEG-TS carries the new
            // parameter sets in band; fragmented MP4 needs a new init segment, so its stream starts over.
            if format == .fragmentedMP4, started, packet.mediaType == .video,
                let previous = descriptions[.video], previous != description
            {
                try startOver()
            }
            descriptions[packet.mediaType] = description
        }
        if !started {
            guard expected.allSatisfy({ descriptions[$0] != nil }) else { return }
            if expected.contains(.video) && !(packet.mediaType == .video && packet.isKeyframe) { return }
            started = true
            origin = packet.dts.seconds
        }
        // MP4 timestamps must not go below the first one written (libavformat cannot shift them
        // back after the header, and the MP4 muxer aborts on a negative duration): audio encoded
        // from before the first keyframe is left out.
        if format == .fragmentedMP4, let origin, packet.dts.seconds < origin { return }
        var forwarded = packet
        if format == .fragmentedMP4 {
            let scale: Int32 = packet.mediaType == .video ? 90_000 : max(1, packet.dts.timescale)
            guard let previous = heldBack.next(forwarded.retimed(scale: scale, origin: origin ?? 0)) else { return }
            forwarded = previous
            let startsFragment = forwarded.mediaType == .video ? forwarded.isKeyframe : !expected.contains(.video)
            if startsFragment && fragments >= fragmentsPerMuxer { try replaceMuxer() }
        }
        try mux(forwarded)
    }

    /// Ends the muxer and its viewers' streams (they get what was muxed, then the end) and starts
    /// afresh at the next keyframe, with a new init segment.
    private func startOver() throws {
        for last in heldBack.drain() { try mux(last) }
        try container.flush()
        publish(output.take())
        try container.finish()
        let ended = hub.restartStream(format, rendition: rendition)
        FileHandle.standardError.write(
            Data(
                "serve: the encode restarted with a new init segment: \(ended) /live.mp4 viewer\(ended == 1 ? "" : "s") ended (they may reconnect)\n"
                    .utf8))
        output = try MemoryOutput()
        container = Self.container(format: format, streams: expected, output: output, continuing: false)
        described = []
        fragments = 0
        started = false
        headerSent = false
        expectedHeader = nil
        origin = nil
    }

    /// Ends the muxer (what it still holds is published; its trailer is not) and starts a fresh one
    /// that continues the same timeline (see the type's comment).
    private func replaceMuxer() throws {
        try container.flush()
        publish(output.take())
        try container.finish()  // the trailer goes to the old output, which nobody reads
        expectedHeader = output.header
        output = try MemoryOutput()
        container = Self.container(format: format, streams: expected, output: output, continuing: true)
        described = []
        fragments = 0
        muxersReplaced += 1
    }

    /// Writes one packet to the muxer and publishes what comes out.
    private func mux(_ packet: EncodedPacket) throws {
        var packet = packet
        if !described.contains(packet.mediaType) {
            // The muxer learns each stream's configuration from its first packet.
            packet.formatDescription = descriptions[packet.mediaType]
            described.insert(packet.mediaType)
        }
        try container.write(packet)
        let isVideo = packet.mediaType == .video
        if isVideo && packet.isKeyframe { keyframeOwed = true }
        if format == .fragmentedMP4 {
            // One fragment per video frame; audio rides along in the next one.
            guard isVideo || !expected.contains(.video) else { return }
            try container.flush()
            fragments += 1
        }
        if let expectedHeader, let header = output.header {
            // A replacement muxer's init segment: the one viewers have must describe its fragments.
            guard header == expectedHeader else {
                throw SinkError.writeFailed(
                    destination: destination, reason: "a fresh MP4 muxer wrote a different init segment")
            }
            self.expectedHeader = nil
        } else if !headerSent, let header = output.header {
            headerSent = true
            hub.setHeader(header, for: format, rendition: rendition)
        }
        publish(output.take())
    }

    private func publish(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        hub.publish(
            ServeChunk(
                bytes: bytes, isKeyframe: keyframeOwed || (!expected.contains(.video) && headerSent),
                published: hub.clock()), to: format, rendition: rendition)
        keyframeOwed = false
    }

    /// Flushes the muxer and ends the stream for every viewer.
    public func finish() throws {
        for last in heldBack.drain() { try mux(last) }
        try container.finish()
    }
}
#endif
#endif
