#if os(Linux)
import Foundation
import OnAirSRT

/// An `srt://` URL read for libsrt: where to connect or listen, and the socket options its query
/// sets, with FFmpeg's names and units (`latency` in microseconds, as `ffmpeg`/`ffplay` take it).
struct SRTEndpoint: Sendable {
    /// The host to connect to, or the address to listen on.
    var host: String
    /// The port.
    var port: UInt16
    /// Whether OnAir waits for the peer (`mode=listener`).
    var isListener: Bool
    /// The socket options.
    var options: SRTSocketOptions

    /// The query parameters understood (FFmpeg's libsrt names); any other is refused.
    static let knownParameters: Set<String> = [
        "mode", "latency", "rcvlatency", "peerlatency", "passphrase", "pbkeylen", "streamid", "payload_size",
        "pkt_size", "maxbw", "inputbw", "oheadbw", "tlpktdrop", "snddropdelay", "sndbuf", "rcvbuf",
        "enforced_encryption", "transtype", "peer_idle_timeout", "connect_timeout",
    ]

    /// Reads `url`; throws `StreamError.unsupportedURL` for a parameter it does not know or a bad value.
    init(url: String, sendTimeout: Double) throws(StreamError) {
        guard let components = URLComponents(string: url), let host = components.host,
            let port = components.port, (0...65_535).contains(port)
        else {
            throw .unsupportedURL(url, reason: "an SRT URL needs a host and a port")
        }
        self.host = host
        self.port = UInt16(port)
        var options = SRTSocketOptions()
        var listener = false
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            func number() throws(StreamError) -> Int64 {
                guard let number = Int64(value) else {
                    throw .unsupportedURL(url, reason: "SRT option \(item.name) needs a number, not '\(value)'")
                }
                return number
            }
            switch item.name {
            case "mode":
                guard ["caller", "listener"].contains(value) else {
                    throw .unsupportedURL(url, reason: "SRT mode must be caller or listener (rendezvous is not supported)")
                }
                listener = value == "listener"
            case "latency", "rcvlatency", "peerlatency": options.latencyMilliseconds = Int32(clamping: try number() / 1000)
            case "passphrase": options.passphrase = value
            case "pbkeylen": options.keyLength = Int32(clamping: try number())
            case "streamid": options.streamID = value
            case "payload_size", "pkt_size": options.payloadSize = Int32(clamping: try number())
            case "maxbw": options.maxBandwidthBytesPerSecond = try number()
            case "inputbw": options.inputBandwidthBytesPerSecond = try number()
            case "oheadbw": options.overheadBandwidthPercent = Int32(clamping: try number())
            case "tlpktdrop": options.tooLatePacketDrop = try number() != 0
            case "snddropdelay": options.sendDropDelayMilliseconds = Int32(clamping: try number() / 1000)
            case "sndbuf": options.sendBufferBytes = Int32(clamping: try number())
            case "rcvbuf": options.receiveBufferBytes = Int32(clamping: try number())
            case "enforced_encryption": options.enforcedEncryption = try number() != 0
            case "peer_idle_timeout": options.peerIdleTimeoutMilliseconds = Int32(clamping: try number() / 1000)
            case "transtype":
                guard value == "live" else { throw .unsupportedURL(url, reason: "only SRT live mode (transtype=live) is supported") }
            case "connect_timeout": break
            default:
                throw .unsupportedURL(
                    url, reason: "unknown SRT option '\(item.name)' (known: \(Self.knownParameters.sorted().joined(separator: ", ")))")
            }
        }
        // A send blocks while libsrt's buffer is full, for at most the send timeout (a stall).
        options.sendBlocking = true
        options.sendTimeoutMilliseconds = Int32(clamping: Int64(sendTimeout * 1000))
        // Port 0 only for a listener: the kernel picks the port (`NetworkSink.listeningName()` names it).
        guard port > 0 || listener else { throw .unsupportedURL(url, reason: "an SRT URL needs a host and a port") }
        isListener = listener
        self.options = options
    }

    /// The largest message: the payload size, 1316 bytes (seven TS packets) by default.
    var payloadSize: Int { Int(options.payloadSize ?? 1316) }
}
#endif
