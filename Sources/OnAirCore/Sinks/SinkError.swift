/// A sink could not write what it was given.
package enum SinkError: OnAirError, Equatable {
    /// A packet arrived without the format description the sink needs to start.
    case missingFormatDescription(destination: String, codec: MediaCodec)
    /// The destination's extension or URL does not name an output OnAir can write.
    case unknownOutput(String)
    /// Writing to the destination failed.
    case writeFailed(destination: String, reason: String)
    /// Too many packets arrived before every stream could describe itself.
    case streamsNeverStarted(destination: String)

    /// The failure in words, naming the destination.
    public var description: String {
        switch self {
        case let .missingFormatDescription(destination, codec):
            return "\(destination): the first \(codec.rawValue) packet carries no parameter sets"
        case let .unknownOutput(name):
            return "\(name): unknown output type (use .h264, .264, .aac, .mp4, .mov, .m4a, .ts or .flv)"
        case let .writeFailed(destination, reason):
            return "cannot write \(destination): \(reason)"
        case let .streamsNeverStarted(destination):
            return "\(destination): a stream never delivered its first packet"
        }
    }
}
