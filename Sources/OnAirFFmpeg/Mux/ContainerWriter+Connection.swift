#if os(Linux)
import CFFmpeg
import OnAirCore

extension ContainerWriter {
    /// How an output that is a network connection is opened and written: packets go straight to
    /// the socket (`av_write_frame`, no interleaving buffer) and every blocking call is bounded.
    package struct Connection: Sendable {
        /// Protocol options (e.g. `tcp_nodelay=1`, `rw_timeout`); each must be one the protocol knows.
        package var protocolOptions: [String: String]
        /// Interrupts blocking calls; the caller arms it before opening, writing and finishing.
        package var deadline: NetworkDeadline

        /// OnAir's own transport under the muxer instead of an FFmpeg protocol (the destination
        /// is then only a name for messages, and `protocolOptions` are unused).
        package var output: PacketOutput?

        /// Describes a connection with its protocol options and deadline.
        package init(protocolOptions: [String: String] = [:], deadline: NetworkDeadline, output: PacketOutput? = nil) {
            self.protocolOptions = protocolOptions
            self.deadline = deadline
            self.output = output
        }
    }

    /// Opens the network connection with the deadline as interrupt callback; a failure carries
    /// what the protocol logged (e.g. why an SRT peer refused) besides FFmpeg's message for the code.
    static func connect(
        _ ctx: UnsafeMutablePointer<AVFormatContext>, destination: String,
        connection: Connection
    ) throws {
        ctx.pointee.interrupt_callback = connection.deadline.callback
        var callback = connection.deadline.callback
        var dictionary: OpaquePointer?
        for (key, value) in connection.protocolOptions { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        let (status, lines) = FFmpegLogCapture.capturing(maximumLevel: AV_LOG_ERROR) {
            avio_open2(&ctx.pointee.pb, destination, AVIO_FLAG_WRITE, &callback, &dictionary)
        }
        if status < 0 {
            // Every line: the first usually names the cause ("Peer certificate failed verification"),
            // the last what failed ("Cannot open connection tls://…").
            let detail = lines.isEmpty ? "" : " (\(lines.joined(separator: "; ")))"
            throw FFmpegError(code: status, operation: "connect to \(destination)\(detail)")
        }
        if let unused = av_dict_get(dictionary, "", nil, AV_DICT_IGNORE_SUFFIX) {
            throw FFmpegError(
                code: onair_averror(22),
                operation: "protocol option '\(String(cString: unused.pointee.key))' of \(destination) not recognised")
        }
    }
}
#endif
