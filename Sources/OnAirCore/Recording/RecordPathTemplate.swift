import Foundation

/// Where segments go, as MediaMTX's `recordPath` names them: a path with placeholders that the
/// start of each segment fills in, the extension (`.mp4`, `.ts`) added after.
///
/// `%path` is the stream's path name; `%Y %m %d %H %M %S` the start's year, month, day, hour,
/// minute and second, `%f` its microseconds (6 digits), `%z` the time zone's offset (`+0100`),
/// `%s` Unix seconds, `%%` a percent sign. Fields are local time in `timeZone`. A template must
/// name each second apart (`%s`, or all of `%Y %m %d %H %M %S`), so that a segment's start can
/// be read back from its name alone (`startTime(of:pathName:)`): listing and retention open no file.
package struct RecordPathTemplate: Sendable, Equatable {
    /// One piece of a template.
    enum Piece: Sendable, Equatable {
        case literal(String)
        case pathName
        case field(Character)
    }

    /// The template as given.
    public let text: String
    /// The time zone the fields are written in.
    public let timeZone: TimeZone
    let pieces: [Piece]
    /// Each literal piece's UTF-8 bytes, by the piece's index (empty for other pieces).
    let literalBytes: [[UInt8]]

    /// Fields and their fixed widths in characters (`%s` is variable: nil).
    static let widths: [Character: Int?] = ["Y": 4, "m": 2, "d": 2, "H": 2, "M": 2, "S": 2, "f": 6, "z": 5, "s": nil]

    /// Reads `text`; throws `RecordingSettingError.badTemplate` for an unknown placeholder, a
    /// template that cannot tell two seconds apart, or two variable fields side by side.
    public init(_ text: String, timeZone: TimeZone = .current) throws(RecordingSettingError) {
        func bad(_ reason: String) -> RecordingSettingError { .badTemplate(template: text, reason: reason) }
        guard !text.isEmpty, text.utf8.count <= 1024 else { throw bad("empty or longer than 1024 bytes") }
        var pieces: [Piece] = []
        var literal = ""
        var rest = Substring(text)
        while let first = rest.first {
            rest = rest.dropFirst()
            guard first == "%" else {
                literal.append(first)
                continue
            }
            if rest.hasPrefix("path") {
                rest = rest.dropFirst(4)
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = ""
                pieces.append(.pathName)
                continue
            }
            guard let code = rest.first else { throw bad("ends with a lone %") }
            rest = rest.dropFirst()
            if code == "%" {
                literal.append("%")
                continue
            }
            guard Self.widths[code] != nil else { throw bad("unknown placeholder %\(code)") }
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
            pieces.append(.field(code))
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        let fields = Set(pieces.compactMap { piece -> Character? in if case .field(let code) = piece { return code } else { return nil } })
        guard fields.contains("s") || fields.isSuperset(of: ["Y", "m", "d", "H", "M", "S"]) else {
            throw bad("needs %s, or all of %Y %m %d %H %M %S, to name each segment apart")
        }
        for (left, right) in zip(pieces, pieces.dropFirst()) where Self.isVariable(left) && Self.isVariable(right) {
            throw bad("%s and %path need something between them and the next placeholder")
        }
        self.text = text
        self.timeZone = timeZone
        self.pieces = pieces
        literalBytes = pieces.map { piece in
            if case .literal(let text) = piece { return Array(text.utf8) }
            return []
        }
    }

    private static func isVariable(_ piece: Piece) -> Bool {
        switch piece {
        case .pathName, .field("s"): return true
        default: return false
        }
    }

    /// Checks a stream's path name for `%path`: 1–128 characters of letters, digits, `-`, `_`, `.`
    /// and `/` between names, never `.` or `..` as a name, never a leading `/`.
    public static func validatePathName(_ name: String) throws(RecordingSettingError) {
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            (scalar.value < 128) && (CharacterSet.alphanumerics.contains(scalar) || "-_./".unicodeScalars.contains(scalar))
        }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.count <= 128, allowed, !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
        else { throw RecordingSettingError.badPathName(name) }
    }

    /// The path of a segment of `pathName` starting at `date` (without the extension).
    public func path(pathName: String, start date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let micros = min(999_999, Int(((seconds - whole) * 1_000_000).rounded(.down)))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: whole))
        var out = ""
        for piece in pieces {
            switch piece {
            case .literal(let text): out += text
            case .pathName: out += pathName
            case .field(let code):
                switch code {
                case "Y": out += Self.padded(parts.year ?? 0, 4)
                case "m": out += Self.padded(parts.month ?? 0, 2)
                case "d": out += Self.padded(parts.day ?? 0, 2)
                case "H": out += Self.padded(parts.hour ?? 0, 2)
                case "M": out += Self.padded(parts.minute ?? 0, 2)
                case "S": out += Self.padded(parts.second ?? 0, 2)
                case "f": out += Self.padded(micros, 6)
                case "s": out += String(Int64(whole))
                default:
                    let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: whole)) / 60
                    out += (offset < 0 ? "-" : "+") + Self.padded(abs(offset) / 60, 2) + Self.padded(abs(offset) % 60, 2)
                }
            }
        }
        return out
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// The name a segment gets when `path` (without its extension) is taken already: the wall
    /// clock stepped back and the same second came again. `_2`, `_3`… after the name, which
    /// `startTime(of:pathName:)` reads back to the same start: a file is never replaced.
    public static func duplicateSuffix(_ attempt: Int) -> String { attempt <= 1 ? "" : "_\(attempt)" }

    /// The directory every segment of `pathName` lies under: the template's folders up to the
    /// first time field (`recordings/live` for `recordings/%path/%Y-%m-%d/%H-%M-%S`; `.` when none).
    public func root(pathName: String) -> String {
        var prefix = ""
        scan: for piece in pieces {
            switch piece {
            case .literal(let text): prefix += text
            case .pathName: prefix += pathName
            case .field: break scan
            }
        }
        guard let slash = prefix.lastIndex(of: "/") else { return "." }
        let directory = String(prefix[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// The start a segment's path (without its extension) names, or nil when the path does not
    /// fit the template for `pathName`. Reads at most the path's own bytes; no file is opened.
    public func startTime(of path: String, pathName: String) -> Date? {
        var offsets: [Int: Double] = [:]
        return startTime(of: Array(path.utf8), pathName: Array(pathName.utf8), offsets: &offsets)
    }

    /// `startTime(of:pathName:)` over UTF-8 bytes, with the zone's offsets cached by local hour
    /// (for a scan of many names: Foundation's zone look-up is slow).
    func startTime(of path: [UInt8], pathName: [UInt8], offsets: inout [Int: Double]) -> Date? {
        var at = 0
        var values = (year: -1, month: -1, day: -1, hour: -1, minute: -1, second: -1, micros: 0)
        var unix: Int64?
        var offsetMinutes: Int?
        func matches(_ bytes: [UInt8]) -> Bool {
            guard at + bytes.count <= path.count else { return false }
            for index in 0..<bytes.count where path[at + index] != bytes[index] { return false }
            at += bytes.count
            return true
        }
        func digits(_ width: Int) -> Int? {
            guard at + width <= path.count else { return nil }
            var value = 0
            for index in at..<at + width {
                guard path[index] >= 48, path[index] <= 57 else { return nil }
                value = value * 10 + Int(path[index] - 48)
            }
            at += width
            return value
        }
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .literal:
                guard matches(literalBytes[index]) else { return nil }
            case .pathName:
                guard matches(pathName) else { return nil }
            case .field("s"):
                var count = 0
                while at + count < path.count, path[at + count] >= 48, path[at + count] <= 57 { count += 1 }
                // The next piece is a literal or a fixed-width field: digits belong to %s up to it.
                if index + 1 < pieces.count, case .field(let next) = pieces[index + 1], let width = Self.widths[next] ?? nil {
                    count -= width
                }
                guard count >= 1, count <= 12, let value = digits(count) else { return nil }
                unix = Int64(value)
            case .field("z"):
                guard at < path.count, path[at] == 43 || path[at] == 45 else { return nil }
                let negative = path[at] == 45
                at += 1
                guard let hhmm = digits(4), hhmm % 100 < 60, hhmm / 100 <= 18 else { return nil }
                let minutes = (hhmm / 100) * 60 + hhmm % 100
                offsetMinutes = negative ? -minutes : minutes
            case .field(let code):
                guard let width = Self.widths[code] ?? nil, let value = digits(width) else { return nil }
                switch code {
                case "Y": values.year = value
                case "m": values.month = value
                case "d": values.day = value
                case "H": values.hour = value
                case "M": values.minute = value
                case "S": values.second = value
                default: values.micros = value
                }
            }
        }
        // A name written again after the wall clock stepped back gets `_N` (`duplicateSuffix`).
        if at < path.count, path[at] == 95, path.count - at - 1 >= 1, path.count - at - 1 <= 4 {
            at += 1
            guard digits(path.count - at) != nil else { return nil }
        }
        guard at == path.count else { return nil }
        let micros = Double(values.micros) / 1_000_000
        if let unix { return Date(timeIntervalSince1970: Double(unix) + micros) }
        let (year, month, day) = (values.year, values.month, values.day)
        guard year >= 0, (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year),
            (0..<24).contains(values.hour), (0..<60).contains(values.minute), (0..<61).contains(values.second)
        else { return nil }
        // Civil time to seconds by arithmetic: Foundation's calendar costs tens of microseconds a
        // name, which listing 10,000 segments would feel.
        let hours = Self.daysSince1970(year: year, month: month, day: day) * 24 + values.hour
        let local = Double(hours * 3600 + values.minute * 60 + values.second)
        if let offsetMinutes { return Date(timeIntervalSince1970: local - Double(offsetMinutes * 60) + micros) }
        if let offset = offsets[hours] { return Date(timeIntervalSince1970: local - offset + micros) }
        // The zone's offset at that moment (checked again once: a name near a DST change).
        var offset = Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local)))
        let again = Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local - offset)))
        if again != offset { offset = again }
        if offsets.count < 100_000 { offsets[hours] = offset }
        return Date(timeIntervalSince1970: local - offset + micros)
    }

    /// Days from 1970-01-01 to the given date of the proleptic Gregorian calendar.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
