/// Where encoded packets go: a file, a container, a network connection.
///
/// One encode feeds every sink. A sink is driven from one thread or queue at a time; `finish()`
/// completes the output (trailer, index, flush) and is called exactly once, after the last packet.
package protocol PacketSink: AnyObject {
    /// A short human-readable name of the destination, for progress lines and errors.
    var destination: String { get }
    /// Takes one packet. Packets of one stream arrive in decoding order.
    func write(_ packet: EncodedPacket) throws
    /// Completes the output.
    func finish() throws
}

/// A sink that writes recording files (a segmented recording): its figures since it started, read
/// from any thread for the session's statistics.
package protocol RecordingFiguresSink: PacketSink, Sendable {
    /// Bytes written to the recording's files and segments its retention deleted, since the start.
    var recordingFigures: RecordingFigures { get }
    /// Applies a reload's recording settings while recording (retention, durations, the
    /// segment-complete command); false when they change what cannot change without a restart.
    func reload(_ settings: RecordingSettings) -> Bool
}

/// What a recording wrote and deleted since it started (counters: they only grow).
package struct RecordingFigures: Sendable, Equatable {
    /// Bytes written to the recording's files.
    public var bytesWritten: Int64 = 0
    /// Segments the retention policy deleted.
    public var segmentsDeleted = 0

    /// None yet.
    public init(bytesWritten: Int64 = 0, segmentsDeleted: Int = 0) {
        self.bytesWritten = bytesWritten
        self.segmentsDeleted = segmentsDeleted
    }
}
