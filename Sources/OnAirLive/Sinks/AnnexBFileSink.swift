import OnAirBitstream
import OnAirCore

/// Writes H.264 as an Annex-B elementary stream (`.h264`), SPS and PPS in front of every IDR,
/// so that any keyframe is a place to start decoding (`ffplay -f h264 file.h264`).
package final class AnnexBFileSink: PacketSink {
    private let file: FileOutput
    private var parameterSets: [H264NALUnit] = []
    /// The file's path.
    public var destination: String { file.path }
    /// Packets written so far (the moment for `WriteFaults`).
    private var packetsWritten = 0

    /// Creates (or truncates) the file at `path`.
    public init(path: String) throws {
        file = try FileOutput(path: path)
    }

    /// Appends one H.264 packet as Annex-B, with the SPS and PPS in front of every IDR; other packets are left out.
    public func write(_ packet: EncodedPacket) throws {
        if packet.codec == .h265 {
            throw SinkError.writeFailed(
                destination: destination, reason: "an .h264 file holds H.264 and this encode is H.265: name the file .h265 or .hevc")
        }
        guard packet.codec == .h264 else { return }
        file.startPacket(packetsWritten)
        packetsWritten += 1
        if let description = packet.formatDescription, !description.sps.isEmpty {
            parameterSets = try (description.sps + description.pps).map(H264NALUnit.init)
        }
        // Annex-B payloads (the encoders' own form) are written as they are, without a copy.
        let annexB: MediaBuffer
        if case .annexB = packet.form {
            annexB = packet.payload
        } else {
            annexB = try packet.converted(to: .annexB(parameterSetsInBand: true))
        }
        guard packet.isKeyframe else {
            try file.write(annexB)
            return
        }
        let units = AnnexB.split(annexB.bytes)
        if units.contains(where: { $0.type == .sps }) {
            try file.write(annexB)
            return
        }
        guard !parameterSets.isEmpty else {
            throw SinkError.missingFormatDescription(destination: destination, codec: .h264)
        }
        // Parameter sets go after an access unit delimiter, if the access unit starts with one.
        let delimiters = units.prefix { $0.type == .accessUnitDelimiter }
        try file.write(AnnexB.join(Array(delimiters) + parameterSets + units.dropFirst(delimiters.count)))
    }

    /// Closes the file.
    public func finish() throws {
        try file.close()
    }
}
