#if os(Linux)
/// What a WebRTC offer asks for, read from its SDP text: per media section its kind, direction and
/// the codecs offered (payload type, encoding, clock rate, format parameters, retransmission
/// payload types), which is what OnAir needs to pick the payload types it sends with.
///
/// Only what the answer depends on is read; webrtcbin parses the whole description again. Bounded:
/// at most `maximumBytes` of text, `maximumLines` lines and `maximumSections` media sections; lines
/// that are not understood are skipped, a description without a version line or a media section
/// is refused.
package struct WebRTCOffer: Sendable, Equatable {
    /// Largest description read.
    package static let maximumBytes = 64 * 1024
    /// Most lines read.
    package static let maximumLines = 2_000
    /// Most media sections read.
    package static let maximumSections = 16

    /// One codec of a media section (`a=rtpmap`, `a=fmtp`).
    package struct Codec: Sendable, Equatable {
        /// The RTP payload type (0…127).
        package var payloadType: Int
        /// The encoding name as written ("H264", "opus", "rtx").
        package var name: String
        /// The RTP clock rate.
        package var clockRate: Int
        /// Channels (audio; 1 when not given).
        package var channels: Int
        /// Format parameters (`a=fmtp`), keys lowercased.
        package var parameters: [String: String]
    }

    /// One media section (`m=` line and its attributes).
    package struct Section: Sendable, Equatable {
        /// "video", "audio", "application", …
        package var kind: String
        /// The section's identification tag (`a=mid`), if any.
        package var mid: String?
        /// "sendrecv", "sendonly", "recvonly" or "inactive" (sendrecv when not said).
        package var direction: String
        /// The codecs, in the order of the `m=` line's format list.
        package var codecs: [Codec]

        /// Whether the offerer wants to receive this section's media.
        package var receives: Bool { direction == "sendrecv" || direction == "recvonly" }
    }

    /// Why an offer was refused.
    package enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case tooLarge
        case notSDP
        case noMedia

        /// What is wrong with the offer, in one line.
        package var description: String {
            switch self {
            case .tooLarge: return "the offer is larger than \(WebRTCOffer.maximumBytes) bytes or \(WebRTCOffer.maximumLines) lines"
            case .notSDP: return "the offer is not an SDP session description (no v=0 line)"
            case .noMedia: return "the offer has no media section"
            }
        }
    }

    /// The media sections, in order.
    package var sections: [Section]

    /// Reads `text`.
    package init(parsing text: String) throws(Problem) {
        guard text.utf8.count <= Self.maximumBytes else { throw .tooLarge }
        let lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        guard lines.count <= Self.maximumLines else { throw .tooLarge }
        guard lines.first.map({ $0.trimmingSpaces() == "v=0" }) == true else { throw .notSDP }
        var sections: [Section] = []
        var formats: [Int] = []
        var rtpmaps: [Int: (String, Int, Int)] = [:]
        var fmtps: [Int: [String: String]] = [:]
        func close() {
            guard var section = sections.popLast() else { return }
            section.codecs = formats.compactMap { type in
                guard let map = rtpmaps[type] ?? Self.staticPayloadType(type) else { return nil }
                return Codec(payloadType: type, name: map.0, clockRate: map.1, channels: map.2, parameters: fmtps[type] ?? [:])
            }
            sections.append(section)
        }
        for raw in lines {
            let line = raw.trimmingSpaces()
            if line.hasPrefix("m=") {
                close()
                guard sections.count < Self.maximumSections else { throw .tooLarge }
                let fields = line.dropFirst(2).split(separator: " ")
                formats = fields.dropFirst(3).prefix(128).compactMap { Int($0) }.filter { (0...127).contains($0) }
                rtpmaps = [:]
                fmtps = [:]
                sections.append(Section(kind: fields.first.map(String.init) ?? "", mid: nil, direction: "sendrecv", codecs: []))
                continue
            }
            guard !sections.isEmpty, line.hasPrefix("a=") else { continue }
            let attribute = line.dropFirst(2)
            let name = attribute.prefix { $0 != ":" }
            let value = attribute.dropFirst(name.count + 1)
            switch name {
            case "mid": sections[sections.count - 1].mid = String(value.prefix(64))
            case "sendrecv", "sendonly", "recvonly", "inactive": sections[sections.count - 1].direction = String(name)
            case "rtpmap":
                guard let (type, rest) = Self.payloadTypeAndRest(value) else { continue }
                let parts = rest.split(separator: "/", maxSplits: 2)
                guard parts.count >= 2, let rate = Int(parts[1]), rate > 0, rate <= 1_000_000 else { continue }
                let channels = parts.count > 2 ? Int(parts[2]) ?? 1 : 1
                rtpmaps[type] = (String(parts[0].prefix(32)), rate, max(1, min(channels, 8)))
            case "fmtp":
                guard let (type, rest) = Self.payloadTypeAndRest(value) else { continue }
                var parameters: [String: String] = [:]
                for pair in rest.split(separator: ";").prefix(32) {
                    let keyValue = pair.split(separator: "=", maxSplits: 1)
                    guard let key = keyValue.first?.trimmingSpaces(), !key.isEmpty else { continue }
                    parameters[key.lowercased()] = keyValue.count > 1 ? String(keyValue[1].trimmingSpaces().prefix(256)) : ""
                }
                fmtps[type] = parameters
            default: continue
            }
        }
        close()
        guard !sections.isEmpty else { throw .noMedia }
        self.sections = sections
    }

    /// "96 H264/90000" → (96, "H264/90000"); nil unless the payload type is 0…127.
    private static func payloadTypeAndRest(_ value: Substring) -> (Int, Substring)? {
        let digits = value.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 3, let type = Int(digits), (0...127).contains(type) else { return nil }
        return (type, value.dropFirst(digits.count).drop { $0 == " " })
    }

    /// The static payload types an offer may use without an rtpmap (RFC 3551), the few that matter here.
    private static func staticPayloadType(_ type: Int) -> (String, Int, Int)? {
        switch type {
        case 0: return ("PCMU", 8_000, 1)
        case 8: return ("PCMA", 8_000, 1)
        case 9: return ("G722", 8_000, 1)
        default: return nil
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars.drop { $0 == " " || $0 == "\t" }
        var end = scalars.endIndex
        while end > scalars.startIndex, scalars[scalars.index(before: end)] == " " || scalars[scalars.index(before: end)] == "\t" {
            end = scalars.index(before: end)
        }
        return String(String.UnicodeScalarView(scalars[scalars.startIndex..<end]))
    }
}
#endif
