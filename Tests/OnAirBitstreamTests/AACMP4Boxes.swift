/// A tiny MP4 box walker for the tests: finds the AudioSpecificConfig in `esds`.
enum AACMP4Boxes {
    /// Boxes that only hold other boxes on the way to `stsd`.
    private static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl"]

    /// The DecoderSpecificInfo (AudioSpecificConfig) bytes of the first `mp4a` sample entry.
    static func audioSpecificConfig(in file: [UInt8]) -> [UInt8]? {
        findESDS(file, 0, file.count).flatMap(decoderSpecificInfo)
    }

    private static func u32(_ bytes: [UInt8], _ at: Int) -> Int? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        return bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func type(_ bytes: [UInt8], _ at: Int) -> String {
        guard at + 4 <= bytes.count else { return "" }
        return String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
    }

    /// Walks boxes in [start, end) and returns the esds payload (after version/flags).
    private static func findESDS(_ bytes: [UInt8], _ start: Int, _ end: Int) -> [UInt8]? {
        var at = start
        while at + 8 <= end, let size = u32(bytes, at), size >= 8, at + size <= end {
            let name = type(bytes, at + 4)
            if containers.contains(name), let found = findESDS(bytes, at + 8, at + size) { return found }
            if name == "stsd", let found = findESDS(bytes, at + 16, at + size) { return found }
            if name == "mp4a", let found = findESDS(bytes, at + 8 + 28, at + size) { return found }
            if name == "esds" { return Array(bytes[(at + 12)..<(at + size)]) }
            at += size
        }
        return nil
    }

    /// Reads descriptors (tag, expandable length) down to tag 5.
    private static func decoderSpecificInfo(_ esds: [UInt8]) -> [UInt8]? {
        var at = 0
        while at < esds.count {
            let tag = esds[at]
            at += 1
            var length = 0
            for _ in 0..<4 {
                guard at < esds.count else { return nil }
                let byte = esds[at]
                at += 1
                length = length << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            switch tag {
            case 3:
                guard at + 3 <= esds.count else { return nil }
                let flags = esds[at + 2]
                at += 3
                if flags & 0x80 != 0 { at += 2 }
                if flags & 0x40 != 0, at < esds.count { at += 1 + Int(esds[at]) }
                if flags & 0x20 != 0 { at += 2 }
            case 4:
                at += 13
            case 5:
                guard at + length <= esds.count else { return nil }
                return Array(esds[at..<(at + length)])
            default:
                at += length
            }
        }
        return nil
    }
}
