import OnAirBitstream
import OnAirCore

/// Writes AAC as an ADTS stream (`.aac`): each raw AAC frame gets its own 7-byte ADTS header
/// built from the stream's AudioSpecificConfig (any of the 13 rates, 1–8 channels).
package final class ADTSFileSink: PacketSink {
    private let file: FileOutput
    private var config: AudioSpecificConfig?
    /// The file's path.
    public var destination: String { file.path }
    /// Packets written so far (the moment for `WriteFaults`).
    private var packetsWritten = 0

    /// Creates (or truncates) the file at `path`.
    public init(path: String) throws {
        file = try FileOutput(path: path)
    }

    /// Appends one AAC packet with its ADTS header; other packets are left out.
    public func write(_ packet: EncodedPacket) throws {
        guard packet.codec == .aac else { return }
        file.startPacket(packetsWritten)
        packetsWritten += 1
        if let description = packet.formatDescription, !description.audioSpecificConfig.isEmpty {
            config = try AudioSpecificConfig(parsing: description.audioSpecificConfig)
        }
        guard let config else {
            throw SinkError.missingFormatDescription(destination: destination, codec: .aac)
        }
        try file.write(try ADTS.wrap(packet.data, config: config))
    }

    /// Closes the file.
    public func finish() throws {
        try file.close()
    }
}
