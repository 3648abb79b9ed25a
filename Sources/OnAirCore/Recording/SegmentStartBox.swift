import Foundation

/// The box OnAir writes into each fragmented-MP4 segment right after its `moov`: where on the
/// wall clock the segment starts, so it can be placed in time with no index and no file name.
///
/// An ISO BMFF `uuid` box (readers skip it): size (4 bytes), `uuid`, the 16-byte type
/// `SegmentStartBox.userType`, version 0 (1 byte), then two big-endian signed 64-bit numbers: the
/// wall-clock start in microseconds since 1970 and the media time of the segment's first sample
/// in microseconds (the `tfdt` of its first fragment, on the recording's own timeline). 41 bytes.
package struct SegmentStartBox: Sendable, Equatable {
    /// The box's user type: OnAir's segment start, version-independent.
    public static let userType: [UInt8] = [
        0x6f, 0x6e, 0x61, 0x69, 0x72, 0x2d, 0x73, 0x65, 0x67, 0x2d, 0x73, 0x74, 0x61, 0x72, 0x74, 0x31,
    ]
    /// The size of the box in bytes.
    public static let size = 41

    /// Wall-clock start, microseconds since 1970-01-01 UTC.
    public var wallClockMicroseconds: Int64
    /// Media time of the first sample, microseconds.
    public var mediaMicroseconds: Int64

    /// A box for a segment starting at `wallClock` with its first sample at `mediaSeconds`.
    public init(wallClock: Date, mediaSeconds: Double) {
        wallClockMicroseconds = Int64((wallClock.timeIntervalSince1970 * 1_000_000).rounded())
        mediaMicroseconds = Int64((mediaSeconds * 1_000_000).rounded())
    }

    /// The wall-clock start as a date.
    public var wallClock: Date { Date(timeIntervalSince1970: Double(wallClockMicroseconds) / 1_000_000) }

    /// The box's bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.size)
        func append(_ value: UInt64, bytes count: Int) {
            for shift in stride(from: (count - 1) * 8, through: 0, by: -8) { out.append(UInt8((value >> UInt64(shift)) & 0xff)) }
        }
        append(UInt64(Self.size), bytes: 4)
        out += Array("uuid".utf8)
        out += Self.userType
        out.append(0)
        append(UInt64(bitPattern: wallClockMicroseconds), bytes: 8)
        append(UInt64(bitPattern: mediaMicroseconds), bytes: 8)
        return out
    }

    /// Finds the box among the top-level boxes of `data` (the start of a file), or nil. Reads only
    /// within `data`: a box size that overruns it, or is below 8, ends the search.
    public static func find(in data: [UInt8]) -> SegmentStartBox? {
        var offset = 0
        var boxes = 0
        while offset + 8 <= data.count, boxes < 64 {
            boxes += 1
            var size = 0
            for index in 0..<4 { size = size << 8 | Int(data[offset + index]) }
            let type = data[offset + 4..<offset + 8]
            if size == 1 {
                guard offset + 16 <= data.count else { return nil }
                var large: UInt64 = 0
                for index in 8..<16 { large = large << 8 | UInt64(data[offset + index]) }
                guard large >= 16, large <= UInt64(Int.max / 2) else { return nil }
                size = Int(large)
            }
            guard size >= 8 else { return nil }
            if Array(type) == Array("uuid".utf8), size == Self.size, offset + size <= data.count,
                Array(data[offset + 8..<offset + 24]) == userType, data[offset + 24] == 0
            {
                func number(at start: Int) -> Int64 {
                    var value: UInt64 = 0
                    for index in start..<start + 8 { value = value << 8 | UInt64(data[index]) }
                    return Int64(bitPattern: value)
                }
                var box = SegmentStartBox(wallClock: Date(), mediaSeconds: 0)
                box.wallClockMicroseconds = number(at: offset + 25)
                box.mediaMicroseconds = number(at: offset + 33)
                return box
            }
            guard size <= data.count - offset else { return nil }
            offset += size
        }
        return nil
    }
}
