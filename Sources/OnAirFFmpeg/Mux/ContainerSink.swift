#if os(Linux)
import OnAirBitstream
import OnAirCore

/// Writes H.264 and AAC into a container (MP4, MOV, MPEG-TS, FLV, Matroska) through libavformat.
///
/// The container's header needs each stream's configuration, which arrives with the first
/// packets; until every expected stream has described itself, packets wait in a small bounded
/// buffer. H.264 goes in as AVCC with an avcC record for MP4/MOV/FLV/Matroska, and as Annex-B
/// (SPS/PPS in front of every IDR) for MPEG-TS.
package final class ContainerSink: PacketSink {
    /// The muxer and where it writes.
    package let destination: String
    private let format: String
    private let options: [String: String]
    private let expected: Set<MediaType>
    private var pending: [EncodedPacket] = []
    private var descriptions: [MediaType: FormatDescription] = [:]
    private var writer: ContainerWriter?
    private var trackIndex: [MediaType: Int] = [:]
    private static let maxPending = 600
    private let interleaved: Bool
    private let output: MemoryOutput?

    /// Prepares to write `destination` with the given libavformat muxer and options; `streams`
    /// says which streams will arrive (the header is written once each has sent its first packet).
    /// `interleaved: false` writes each packet at once instead of ordering streams by time (live outputs).
    /// With `output`, the container goes to memory and `destination` is only a label.
    package init(
        destination: String, format: String, streams: Set<MediaType>, options: [String: String] = [:],
        interleaved: Bool = true, output: MemoryOutput? = nil
    ) {
        self.interleaved = interleaved
        self.output = output
        self.destination = destination
        self.format = format
        self.expected = streams
        self.options = options
    }

    /// MPEG-TS (also as HLS segments) takes Annex-B with the parameter sets in band, so a stream
    /// whose parameters change (a restarted encode) carries the new ones; the other containers
    /// take AVCC samples with the parameter sets in their header.
    private var usesAVCC: Bool { format != "mpegts" && !(format == "hls" && options["hls_segment_type"] != "fmp4") }

    /// Writes one encoded packet; until every expected stream has sent its first packet, packets wait (and the header
    /// is written once they all have).
    package func write(_ packet: EncodedPacket) throws {
        if writer == nil {
            if descriptions[packet.mediaType] == nil, let description = packet.formatDescription {
                descriptions[packet.mediaType] = description
            }
            pending.append(packet)
            guard expected.allSatisfy({ descriptions[$0] != nil }) else {
                if pending.count > Self.maxPending { throw SinkError.streamsNeverStarted(destination: destination) }
                return
            }
            try open()
            let waiting = pending
            pending = []
            for waitingPacket in waiting { try send(waitingPacket) }
            return
        }
        try send(packet)
    }

    private func open() throws {
        var tracks: [ContainerWriter.Track] = []
        for type in [MediaType.video, .audio] where expected.contains(type) {
            guard let description = descriptions[type] else { continue }
            trackIndex[type] = tracks.count
            tracks.append(try Self.track(for: description, avcc: usesAVCC))
        }
        writer = try ContainerWriter(
            destination: destination, format: format, tracks: tracks, options: options,
            interleaved: interleaved, output: output)
    }

    /// The container track for a stream's format description (shared with `NetworkConnection`).
    static func track(for description: FormatDescription, avcc: Bool) throws -> ContainerWriter.Track {
        switch description {
        case let .h264(spsBytes, ppsBytes):
            let sps = try spsBytes.map(H264NALUnit.init)
            let pps = try ppsBytes.map(H264NALUnit.init)
            guard let first = sps.first else { throw SinkError.missingFormatDescription(destination: "", codec: .h264) }
            let parsed = try H264SPS(first)
            let extradata =
                avcc
                ? try AVCDecoderConfigurationRecord(sps: sps, pps: pps).serialized()
                : AnnexB.join(sps + pps)
            return .video(
                width: parsed.width, height: parsed.height, frameRate: parsed.frameRate ?? 0,
                extradata: extradata)
        case let .h265(vps, spsBytes, pps):
            let units = try (vps + spsBytes + pps).map(HEVCNALUnit.init)
            guard let first = units.first(where: { $0.type == .sps }) else {
                throw SinkError.missingFormatDescription(destination: "", codec: .h265)
            }
            let parsed = try HEVCSPS(first)
            let extradata = avcc ? try HEVCDecoderConfigurationRecord(units: units).serialized() : HEVCByteStream.joinAnnexB(units)
            return .video(.h265, width: parsed.width, height: parsed.height, frameRate: parsed.frameRate ?? 0, extradata: extradata)
        case let .aac(bytes):
            let config = try AudioSpecificConfig(parsing: bytes)
            return .audio(sampleRate: config.samplingFrequency, channels: config.outputChannels, extradata: bytes)
        case let .opus(header):
            // OpusHead: "OpusHead", version, channel count, ... (RFC 7845 §5.1); Opus always decodes at 48 kHz.
            guard header.count >= 19, header.starts(with: Array("OpusHead".utf8)), header[9] > 0 else {
                throw SinkError.missingFormatDescription(destination: "", codec: .opus)
            }
            return .audio(.opus, sampleRate: 48_000, channels: Int(header[9]), extradata: header)
        }
    }

    private func send(_ packet: EncodedPacket) throws {
        guard let writer, let track = trackIndex[packet.mediaType] else { return }
        try writer.write(
            track: track, payload: try Self.payloadBuffer(of: packet, avcc: usesAVCC), pts: packet.pts,
            dts: packet.dts, duration: packet.duration, isKeyframe: packet.isKeyframe)
    }

    /// A packet's bytes in the container's form: H.264 (H.265) as AVCC (`hvc1`) samples, parameter
    /// sets left to the avcC (hvcC) record, when `avcc`, else as they are (shared with `NetworkConnection`).
    static func payload(of packet: EncodedPacket, avcc: Bool) throws -> [UInt8] {
        try payloadBuffer(of: packet, avcc: avcc).bytes
    }

    /// `payload(of:avcc:)` without a copy: the packet's own payload, or its AVCC conversion made
    /// once and shared with every other sink that needs it.
    static func payloadBuffer(of packet: EncodedPacket, avcc: Bool) throws -> MediaBuffer {
        guard packet.codec == .h264 || packet.codec == .h265 else { return packet.payload }
        if avcc { return try packet.converted(to: .avcc) }
        if case .annexB = packet.form { return packet.payload }
        return try packet.converted(to: .annexB(parameterSetsInBand: true))
    }

    /// Closes the fragment or PES the muxer holds back (see `ContainerWriter.flush`).
    package func flush() throws {
        try writer?.flush()
    }

    /// Writes what is still waiting and the container's trailer, and closes the output; streams that never started are
    /// left out.
    package func finish() throws {
        if writer == nil, !pending.isEmpty {
            // Streams that never started are left out rather than losing what did arrive.
            let started = expected.filter { descriptions[$0] != nil }
            guard !started.isEmpty else { throw SinkError.streamsNeverStarted(destination: destination) }
            let waiting = pending
            pending = []
            let partial = ContainerSink(
                destination: destination, format: format, streams: started, options: options,
                interleaved: interleaved, output: output)
            for packet in waiting where started.contains(packet.mediaType) { try partial.write(packet) }
            try partial.finish()
            return
        }
        try writer?.finish()
    }
}
#endif
