#if os(Linux)
import CFFmpeg
import OnAirCore

/// One live connection to a streaming destination: FLV over RTMP, or MPEG-TS over SRT, UDP or TCP.
///
/// Opening it connects (or, for a listener URL, waits for the peer) and writes the container
/// header; each packet then goes to the socket as soon as it is muxed. Every blocking call is
/// bounded by the `NetworkDeadline` the caller arms. Use it from one thread at a time.
package final class NetworkConnection {
    /// The destination with secrets (SRT passphrase) removed, for messages.
    package let displayName: String
    /// Interrupts this connection's blocking calls.
    package let deadline: NetworkDeadline
    private let writer: ContainerWriter
    private let trackIndex: [MediaType: Int]
    private let avcc: Bool
    /// OnAir's own transport under the muxer, when FFmpeg's protocols are not used.
    private let output: PacketOutput?

    /// Connects to `url` and writes the `format` muxer's header for the streams in `descriptions`.
    ///
    /// Arm `deadline` first: it bounds the connect (and a listener's wait for its peer).
    package init(
        url: String, displayName: String, format: String, descriptions: [MediaType: FormatDescription],
        muxerOptions: [String: String], protocolOptions: [String: String], deadline: NetworkDeadline
    ) throws {
        self.displayName = displayName
        self.deadline = deadline
        output = nil
        avcc = format != "mpegts"
        let (tracks, index) = try Self.tracks(descriptions, avcc: avcc)
        trackIndex = index
        do {
            writer = try ContainerWriter(
                destination: url, format: format, tracks: tracks, options: muxerOptions,
                connection: .init(protocolOptions: protocolOptions, deadline: deadline))
        } catch let error as FFmpegError {
            throw Self.redacted(error, url: url, displayName: displayName)
        }
    }

    /// Muxes into `output` (an already connected transport of OnAir's own, such as an SRT socket)
    /// instead of opening a URL; writes the header at once. A failure of `output` is thrown as is.
    package init(
        output: PacketOutput, displayName: String, format: String, descriptions: [MediaType: FormatDescription],
        muxerOptions: [String: String]
    ) throws {
        self.displayName = displayName
        self.deadline = NetworkDeadline()
        self.output = output
        avcc = format != "mpegts"
        let (tracks, index) = try Self.tracks(descriptions, avcc: avcc)
        trackIndex = index
        do {
            writer = try ContainerWriter(
                destination: displayName, format: format, tracks: tracks, options: muxerOptions,
                connection: .init(deadline: deadline, output: output))
        } catch {
            throw output.failure ?? error
        }
    }

    private static func tracks(_ descriptions: [MediaType: FormatDescription], avcc: Bool) throws
        -> ([ContainerWriter.Track], [MediaType: Int])
    {
        var tracks: [ContainerWriter.Track] = []
        var index: [MediaType: Int] = [:]
        for type in [MediaType.video, .audio] {
            guard let description = descriptions[type] else { continue }
            index[type] = tracks.count
            tracks.append(try ContainerSink.track(for: description, avcc: avcc))
        }
        return (tracks, index)
    }

    /// Sends one packet; arm `deadline` first so that a stalled peer makes it fail instead of block.
    package func send(_ packet: EncodedPacket) throws {
        guard let track = trackIndex[packet.mediaType] else { return }
        let payload = try ContainerSink.payloadBuffer(of: packet, avcc: avcc)
        do {
            try writer.write(
                track: track, payload: payload, pts: packet.pts, dts: packet.dts,
                duration: packet.duration, isKeyframe: packet.isKeyframe)
        } catch {
            throw output?.failure ?? error
        }
    }

    /// Writes the trailer and closes the connection (arm `deadline` first).
    package func close() throws {
        do { try writer.finish() } catch { throw output?.failure ?? error }
    }

    /// Closes a connection that already failed, without sending anything more.
    package func abandon() {
        writer.abandon()
    }

    /// The error with the URL (which may hold a passphrase) replaced by the display name.
    private static func redacted(_ error: FFmpegError, url: String, displayName: String) -> FFmpegError {
        FFmpegError(code: error.code, operation: error.operation.replacingAll(url, with: displayName))
    }
}

extension String {
    /// This string with every occurrence of `target` replaced (Foundation-free).
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
#endif
