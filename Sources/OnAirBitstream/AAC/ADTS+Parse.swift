extension ADTS {
    /// The most header bytes a candidate can need: 7 + 3 block positions + CRC.
    private static let longestHeader = 15

    /// Finds the ADTS frames in `bytes`, resynchronising after garbage or damage.
    ///
    /// A candidate header (valid sync word, layer, sampling index and length) is trusted when
    /// its frame ends exactly at the end of the data or where the next frame's sync word starts;
    /// otherwise the scan moves on by one byte. Never traps, and always terminates.
    public static func parse(_ bytes: [UInt8]) -> ADTSStream {
        var frames: [ADTSFrame] = []
        var skipped = 0
        var damaged = 0
        var index = 0
        var frameDue = true
        while index < bytes.count {
            switch candidate(in: bytes, at: index) {
            case .header(let header):
                let end = index + header.frameLength
                if end <= bytes.count, nextFrameFollows(in: bytes, at: end) {
                    let payload = Array(bytes[(index + header.headerLength)..<end])
                    frames.append(ADTSFrame(header: header, payload: payload, offset: index))
                    index = end
                    frameDue = true
                    continue
                }
                if frameDue { damaged += 1 }
            case .truncated:
                if frameDue { damaged += 1 }
            case .none:
                break
            }
            frameDue = false
            skipped += 1
            index += 1
        }
        return ADTSStream(frames: frames, skippedBytes: skipped, damagedFrames: damaged)
    }

    /// Whether the two bytes at `index` start an ADTS header (sync word and layer 0), as far as
    /// the data reaches.
    private static func syncStarts(in bytes: [UInt8], at index: Int) -> Bool {
        guard index < bytes.count, bytes[index] == 0xFF else { return false }
        return index + 1 >= bytes.count || bytes[index + 1] & 0xF6 == 0xF0
    }

    /// What starts at one position of the data.
    private enum Candidate {
        /// A complete, valid header.
        case header(ADTSHeader)
        /// The start of a header cut off by the end of the data.
        case truncated
        /// No header.
        case none
    }

    /// The header at `index`, when a valid one (or the start of one) is there.
    private static func candidate(in bytes: [UInt8], at index: Int) -> Candidate {
        guard syncStarts(in: bytes, at: index) else { return .none }
        let end = min(bytes.count, index + longestHeader)
        do {
            return .header(try ADTSHeader(parsing: bytes[index..<end]))
        } catch {
            if case .truncated = error { return .truncated }
            return .none
        }
    }

    /// Whether the data ends at `index` or another frame starts there (a valid header, or the
    /// start of one cut off by the end of the data).
    private static func nextFrameFollows(in bytes: [UInt8], at index: Int) -> Bool {
        if index == bytes.count { return true }
        guard syncStarts(in: bytes, at: index) else { return false }
        let end = min(bytes.count, index + longestHeader)
        do {
            _ = try ADTSHeader(parsing: bytes[index..<end])
            return true
        } catch {
            if case .truncated = error { return true }
            return false
        }
    }
}
