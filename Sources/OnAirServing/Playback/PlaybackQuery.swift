#if os(Linux)
import Foundation
import OnAirCore

/// The query of a playback request (`/list`, `/get`), read with bounds on every field: MediaMTX's
/// names (`path`, `start`, `end`, `duration`, `format`) and RFC 3339 times.
package struct PlaybackQuery: Sendable, Equatable {
    /// What `/get` answers with.
    package enum Format: String, Sendable {
        /// Fragmented MP4, streamed as it is stitched.
        case fmp4
        /// A regular MP4 with its index in front, answering `Range` requests.
        case mp4
        /// An HLS playlist (VOD) of the span, its media byte ranges of one fragmented MP4 built for it.
        case hls
    }

    /// Why a query was refused (the answer is 400 with this text).
    package struct Refusal: Error, Equatable, CustomStringConvertible {
        /// The reason in words.
        package let description: String
    }

    /// The stream's path name.
    package var path: String
    /// The span's start (`/list`: nil for from the first segment).
    package var start: Date?
    /// The span's end (`/list`: nil for up to the last; `/get`: start + duration).
    package var end: Date?
    /// `/get`: the container answered.
    package var format = Format.fmp4

    /// The longest span `/get` stitches (seconds).
    package static let maximumSpan = 86_400.0

    /// Reads a `/list` query: `path`, optional `start` and `end`.
    package static func list(_ query: [String: String]) throws(Refusal) -> PlaybackQuery {
        let path = try pathName(query)
        let start = try query["start"].map { text throws(Refusal) in try time(text, "start") }
        let end = try query["end"].map { text throws(Refusal) in try time(text, "end") }
        if let start, let end, end < start { throw Refusal(description: "end is before start") }
        return PlaybackQuery(path: path, start: start, end: end)
    }

    /// Reads a `/get` query: `path`, `start`, `duration` (seconds), optional `format`.
    package static func get(_ query: [String: String]) throws(Refusal) -> PlaybackQuery {
        let path = try pathName(query)
        guard let startText = query["start"] else { throw Refusal(description: "start is missing") }
        let start = try time(startText, "start")
        guard let durationText = query["duration"] else { throw Refusal(description: "duration is missing") }
        guard durationText.utf8.count <= 20, let duration = Double(durationText), duration.isFinite, duration > 0,
            duration <= maximumSpan
        else { throw Refusal(description: "duration must be seconds, more than 0 and at most \(Int(maximumSpan))") }
        var format = Format.fmp4
        if let text = query["format"] {
            guard let value = Format(rawValue: text) else { throw Refusal(description: "format must be fmp4, mp4 or hls") }
            format = value
        }
        return PlaybackQuery(path: path, start: start, end: start.addingTimeInterval(duration), format: format)
    }

    private static func pathName(_ query: [String: String]) throws(Refusal) -> String {
        guard let path = query["path"] else { throw Refusal(description: "path is missing") }
        do {
            try RecordPathTemplate.validatePathName(path)
        } catch {
            throw Refusal(description: "path is not a stream name")
        }
        return path
    }

    private static func time(_ text: String, _ name: String) throws(Refusal) -> Date {
        guard let date = parseRFC3339(text) else { throw Refusal(description: "\(name) is not an RFC 3339 time") }
        return date
    }

    /// An RFC 3339 time (`2026-12-02T05:31:45Z`, `…45.123456+01:00`, up to 9 fraction digits), or
    /// nil. Reads at most 40 bytes; every field is range-checked.
    package static func parseRFC3339(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[from..<from + count] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), bytes[4] == 45, let month = number(5, 2), bytes[7] == 45, let day = number(8, 2),
            bytes[10] == 84 || bytes[10] == 116 || bytes[10] == 32, let hour = number(11, 2), bytes[13] == 58,
            let minute = number(14, 2), bytes[16] == 58, let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61, year >= 1970
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            var scale = 0.1
            let first = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57, index - first < 9 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > first else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case 90, 122:
            index += 1
        case 43, 45, 32:  // a '+' may arrive decoded from a query as a space
            guard let hours = number(index + 1, 2), index + 3 < bytes.count, bytes[index + 3] == 58,
                let minutes = number(index + 4, 2), hours < 24, minutes < 60
            else { return nil }
            offset = (hours * 60 + minutes) * 60 * (bytes[index] == 45 ? -1 : 1)
            index += 6
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(secondsFromGMT: 0) else { return nil }
        calendar.timeZone = utc
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return date.addingTimeInterval(fraction - Double(offset))
    }

    /// `date` as RFC 3339 in UTC with microseconds (`2026-12-02T05:31:45.250000Z`).
    package static func formatRFC3339(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let micros = min(999_999, Int(((seconds - whole) * 1_000_000).rounded()))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: whole))
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0,
            c.second ?? 0, micros)
    }
}
#endif
