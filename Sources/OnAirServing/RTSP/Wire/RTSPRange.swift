#if os(Linux)

/// The Range a PLAY asks for (RFC 2326 §12.29, npt only) and the Range and RTP-Info values of the
/// answer. The server is live: whatever start is asked, it plays from now and answers `npt=now-`.
package struct RTSPRange: Sendable, Equatable {
    /// The longest Range value read (bytes); a longer one is treated as absent.
    package static let lengthLimit = 128
    /// The Range value of every PLAY answer.
    package static let live = "npt=now-"

    /// The start asked in seconds, nil for `now`.
    package var start: Double?
    /// The end asked in seconds, nil when open.
    package var end: Double?

    /// A range from `start` (nil: now) to `end` (nil: open).
    package init(start: Double? = nil, end: Double? = nil) {
        self.start = start
        self.end = end
    }

    /// The npt range of a Range value (`npt=now-`, `npt=0.000-`, `npt=1:02:03.5-7`, parameters
    /// after `;` ignored), nil when `header` is absent or does not parse (then played as absent).
    package init?(header: String?) {
        guard let header, header.utf8.count <= Self.lengthLimit, header.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) else {
            return nil
        }
        let value = header.prefix { $0 != ";" }.trimming(" ")
        guard value.lowercased().hasPrefix("npt="), let dash = value.firstIndex(of: "-") else { return nil }
        let first = value[value.index(value.startIndex, offsetBy: 4)..<dash].trimming(" ")
        let last = value[value.index(after: dash)...].trimming(" ")
        guard !(first.isEmpty && last.isEmpty) else { return nil }
        var start: Double?
        if !first.isEmpty, first.lowercased() != "now" {
            guard let seconds = Self.seconds(first) else { return nil }
            start = seconds
        }
        var end: Double?
        if !last.isEmpty {
            guard let seconds = Self.seconds(last) else { return nil }
            end = seconds
        }
        self.init(start: start, end: end)
    }

    /// The seconds of an npt time, `12.5` or `h:mm:ss.f`; nil for anything else.
    static func seconds(_ text: Substring) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 3 else { return nil }
        let isDecimal = { (part: Substring) in
            !part.isEmpty && part.first != "." && part.filter { $0 == "." }.count <= 1
                && part.allSatisfy { $0 == "." || ("0"..."9").contains($0) }
        }
        guard parts.allSatisfy(isDecimal), let last = Double(parts[parts.count - 1]), last.isFinite else { return nil }
        guard parts.count == 3 else { return last }
        guard !parts[0].contains("."), !parts[1].contains("."), let hours = Double(parts[0]), let minutes = Double(parts[1]),
            minutes < 60, last < 60
        else { return nil }
        let seconds = hours * 3600 + minutes * 60 + last
        return seconds.isFinite ? seconds : nil
    }

    /// One track's entry in an RTP-Info value.
    package struct Track: Sendable, Equatable {
        /// The track's URL (the SETUP's).
        package var url: String
        /// The sequence number of the first packet sent after PLAY.
        package var seq: UInt16
        /// The RTP timestamp of that packet.
        package var rtptime: UInt32

        /// A track at `url` starting at `seq` and `rtptime`.
        package init(url: String, seq: UInt16, rtptime: UInt32) {
            self.url = url
            self.seq = seq
            self.rtptime = rtptime
        }
    }

    /// The RTP-Info value of a PLAY answer: `url=…;seq=N;rtptime=T` per track, comma-separated.
    package static func rtpInfo(_ tracks: [Track]) -> String {
        tracks.map { "url=\($0.url);seq=\($0.seq);rtptime=\($0.rtptime)" }.joined(separator: ",")
    }
}

extension StringProtocol {
    /// This text without `character` at either end.
    fileprivate func trimming(_ character: Character) -> SubSequence {
        var text = self[...]
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return text
    }
}
#endif
