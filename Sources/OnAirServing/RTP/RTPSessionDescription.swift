#if os(Linux)
import Foundation
import OnAirBitstream
import OnAirCore

/// The SDP (RFC 8866) of tracks served as RTP by `RTPPacketizer`s: each track's media lines with
/// its `a=rtpmap` and `a=fmtp` (RFC 6184 §8.2.1 for H.264, RFC 7798 §7.2 for H.265, RFC 3640
/// §4.1 for AAC-hbr), and a whole session description around them.
package enum RTPSessionDescription {
    /// The media lines of `track`: `m=`, `a=rtpmap`, `a=fmtp` and, when given, `a=control`.
    /// `port` is the receiver's port (0 in an RTSP DESCRIBE, where SETUP says it).
    package static func media(of track: RTPPacketizer, port: Int = 0, control: String? = nil) -> [String] {
        let type = track.payloadType
        var lines: [String]
        switch track.codec {
        case .h264:
            var parameters = ["packetization-mode=1"]
            if let sps = track.formatDescription?.sps.first, sps.count >= 4 {
                parameters.append("profile-level-id=" + hex(sps[1..<4]))
            }
            if let description = track.formatDescription, !description.parameterSets.isEmpty {
                parameters.append("sprop-parameter-sets=" + description.parameterSets.map(base64).joined(separator: ","))
            }
            lines = [
                "m=video \(port) RTP/AVP \(type)", "a=rtpmap:\(type) H264/90000", "a=fmtp:\(type) " + parameters.joined(separator: ";"),
            ]
        case .h265:
            lines = ["m=video \(port) RTP/AVP \(type)", "a=rtpmap:\(type) H265/90000"]
            if case .h265(let vps, let sps, let pps)? = track.formatDescription {
                let sets = [("sprop-vps", vps), ("sprop-sps", sps), ("sprop-pps", pps)].filter { !$0.1.isEmpty }
                if !sets.isEmpty {
                    lines.append(
                        "a=fmtp:\(type) " + sets.map { "\($0.0)=" + $0.1.map(base64).joined(separator: ",") }.joined(separator: ";"))
                }
            }
        default:
            let config = track.formatDescription?.audioSpecificConfig ?? []
            let channels = max(1, (try? AudioSpecificConfig(parsing: config))?.outputChannels ?? 1)
            lines = [
                "m=audio \(port) RTP/AVP \(type)", "a=rtpmap:\(type) MPEG4-GENERIC/\(track.clockRate)/\(channels)",
                "a=fmtp:\(type) streamtype=5;profile-level-id=1;mode=AAC-hbr;sizelength=13;indexlength=3;indexdeltalength=3;config="
                    + hex(config[...]),
            ]
        }
        if let control { lines.append("a=control:\(control)") }
        return lines
    }

    /// A whole session description: version, origin, session name, the connection address
    /// (IPv4), an unbounded time, then each track's media lines; CRLF line ends.
    package static func session(media: [[String]], address: String, sessionID: UInt64, name: String = "OnAir") -> String {
        let lines =
            ["v=0", "o=- \(sessionID) 1 IN IP4 \(address)", "s=\(name)", "c=IN IP4 \(address)", "t=0 0"] + media.flatMap { $0 }
        return lines.map { $0 + "\r\n" }.joined()
    }

    /// `bytes` in lowercase hexadecimal.
    private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// `bytes` in base64 (RFC 4648, with padding).
    private static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }
}
#endif
