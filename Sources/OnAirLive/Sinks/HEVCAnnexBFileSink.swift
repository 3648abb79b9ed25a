import OnAirBitstream
import OnAirCore

/// Writes H.265 as an Annex-B elementary stream (`.h265`, `.hevc`), VPS, SPS and PPS in front of
/// every keyframe, so that any keyframe is a place to start decoding (`ffplay -f hevc file.h265`).
package final class HEVCAnnexBFileSink: PacketSink {
    private let file: FileOutput
    private var parameterSets: [HEVCNALUnit] = []
    /// The file's path.
    public var destination: String { file.path }
    /// Packets written so far (the moment for `WriteFaults`).
    private var packetsWritten = 0

    /// Creates (or truncates) the file at `path`.
    public init(path: String) throws {
        file = try FileOutput(path: path)
    }

    /// Appends one H.265 packet as Annex-B, the parameter sets in front of a keyframe that lacks them;
    /// audio is left out and H.264 refused.
    public func write(_ packet: EncodedPacket) throws {
        guard packet.mediaType == .video else { return }
        guard packet.codec == .h265 else {
            throw SinkError.writeFailed(
                destination: destination, reason: "an .h265 file holds H.265 and this encode is \(packet.codec.rawValue): add --codec h265")
        }
        file.startPacket(packetsWritten)
        packetsWritten += 1
        if let description = packet.formatDescription, case .h265 = description {
            parameterSets = try description.parameterSets.map(HEVCNALUnit.init)
        }
        let annexB = try packet.converted(to: .annexB(parameterSetsInBand: true))
        guard packet.isKeyframe else {
            try file.write(annexB)
            return
        }
        let units = HEVCByteStream.split(annexB.bytes)
        if units.contains(where: { $0.type.isParameterSet }) {
            try file.write(annexB)
            return
        }
        guard !parameterSets.isEmpty else { throw SinkError.missingFormatDescription(destination: destination, codec: .h265) }
        try file.write(HEVCByteStream.joinAnnexB(HEVCByteStream.withParameterSets(units, parameterSets)))
    }

    /// Closes the file.
    public func finish() throws {
        try file.close()
    }
}
