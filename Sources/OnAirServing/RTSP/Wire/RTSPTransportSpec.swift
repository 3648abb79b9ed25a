#if os(Linux)

/// The transport the server delivers a track on, chosen from a SETUP request's Transport header
/// (RFC 2326 §12.39), and the Transport values of the answer.
package enum RTSPTransportSpec: Sendable, Equatable {
    /// Unicast RTP over UDP to the client's ports.
    case udp(rtp: UInt16, rtcp: UInt16)
    /// RTP interleaved on the RTSP connection on these channels (RTP, RTCP), nil when the client
    /// asked for none and the server assigns them.
    case tcp(channels: (UInt8, UInt8)?)

    /// The most specs of a Transport header looked at (the rest are ignored).
    package static let specLimit = 8
    /// The most parameters of one spec; a spec with more is not served.
    package static let parameterLimit = 16
    /// The longest parameter (bytes); a spec with a longer one is not served.
    package static let parameterLength = 256

    /// The first spec of `header` the server can serve, nil when none is (answer 461). Served:
    /// `RTP/AVP`, `RTP/AVP/UDP` with `client_port=a-b` (or `a`, RTCP on a+1) and `RTP/AVP/TCP`
    /// (with or without `interleaved=a-b` or `a`), unicast (or neither unicast nor multicast
    /// said), mode PLAY. Not served: multicast, other profiles (RTP/SAVP, RTP/AVPF), `mode=record`,
    /// UDP without client ports. `destination` is ignored: media go to the connection's peer.
    package init?(header: String) {
        for spec in header.split(separator: ",", omittingEmptySubsequences: true).prefix(Self.specLimit) {
            if let chosen = Self.servable(spec) {
                self = chosen
                return
            }
        }
        return nil
    }

    /// `spec` as the server would serve it, nil when it cannot.
    static func servable(_ spec: Substring) -> RTSPTransportSpec? {
        let parameters = spec.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        guard parameters.count <= parameterLimit + 1, parameters.allSatisfy({ $0.utf8.count <= parameterLength }) else { return nil }
        let isTCP: Bool
        switch parameters[0].uppercased() {
        case "RTP/AVP", "RTP/AVP/UDP": isTCP = false
        case "RTP/AVP/TCP": isTCP = true
        default: return nil
        }
        var clientPorts: (UInt16, UInt16)?
        var channels: (UInt8, UInt8)?
        for parameter in parameters.dropFirst() {
            let (name, value) = parameter.split(at: "=")
            switch name.lowercased() {
            case "multicast":
                return nil
            case "mode":
                let mode = value?.strippingQuotes.uppercased()
                guard mode == "PLAY" else { return nil }
            case "client_port":
                guard let (a, b) = value.flatMap(pair), a > 0, b > 0 else { return nil }
                clientPorts = (UInt16(a), UInt16(b))
            case "interleaved":
                guard let (a, b) = value.flatMap(pair), a <= 255, b <= 255 else { return nil }
                channels = (UInt8(a), UInt8(b))
            default:
                continue
            }
        }
        if isTCP { return .tcp(channels: channels) }
        guard let (rtp, rtcp) = clientPorts else { return nil }
        return .udp(rtp: rtp, rtcp: rtcp)
    }

    /// The numbers of `a-b`, or of `a` as (a, a + 1), each at most 65535; nil for anything else.
    static func pair(_ text: Substring) -> (Int, Int)? {
        let (first, second) = text.split(at: "-")
        guard let a = number(first) else { return nil }
        guard let second else { return a < 65_535 ? (a, a + 1) : nil }
        guard let b = number(second) else { return nil }
        return (a, b)
    }

    /// A plain decimal of 1 to 5 digits up to 65535, nil for anything else.
    static func number(_ text: Substring) -> Int? {
        guard (1...5).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text),
            value <= 65_535
        else { return nil }
        return value
    }

    /// The Transport value answering a UDP SETUP:
    /// `RTP/AVP;unicast;client_port=a-b;server_port=c-d;ssrc=XXXXXXXX`.
    package static func udpAnswer(client: (rtp: UInt16, rtcp: UInt16), server: (rtp: UInt16, rtcp: UInt16), ssrc: UInt32) -> String {
        "RTP/AVP;unicast;client_port=\(client.rtp)-\(client.rtcp);server_port=\(server.rtp)-\(server.rtcp);ssrc=\(hex(ssrc))"
    }

    /// The Transport value answering an interleaved SETUP: `RTP/AVP/TCP;unicast;interleaved=a-b;ssrc=XXXXXXXX`.
    package static func tcpAnswer(channels: (rtp: UInt8, rtcp: UInt8), ssrc: UInt32) -> String {
        "RTP/AVP/TCP;unicast;interleaved=\(channels.rtp)-\(channels.rtcp);ssrc=\(hex(ssrc))"
    }

    /// `value` as 8 upper-case hexadecimal digits.
    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Whether both are the same transport with the same ports or channels (a tuple is not
    /// Equatable, so this is written out).
    package static func == (lhs: RTSPTransportSpec, rhs: RTSPTransportSpec) -> Bool {
        switch (lhs, rhs) {
        case (.udp(let a, let b), .udp(let c, let d)): a == c && b == d
        case (.tcp(nil), .tcp(nil)): true
        case (.tcp(let x?), .tcp(let y?)): x == y
        default: false
        }
    }
}

extension Substring {
    /// This text without the spaces and tabs around it.
    fileprivate var trimmingSpaces: Substring {
        let isSpace = { (c: Character) in c == " " || c == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }

    /// The text before the first `separator` and the text after it (nil when there is none).
    fileprivate func split(at separator: Character) -> (Substring, Substring?) {
        guard let position = firstIndex(of: separator) else { return (self, nil) }
        return (self[..<position], self[index(after: position)...])
    }

    /// This text without double quotes at either end.
    fileprivate var strippingQuotes: Substring {
        var text = self
        while text.first == "\"" { text = text.dropFirst() }
        while text.last == "\"" { text = text.dropLast() }
        return text
    }
}
#endif
