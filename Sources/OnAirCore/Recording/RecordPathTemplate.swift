import Foundation

/// Where segments go, as MediaMTX's `recordPath` names them: a path with placeholders that the
/// start of each segment fills in, the extension (`.mp4`, `.ts`) added after.
///
/// `%path` is the stream's path name; `%Y %m %d %H %M %S` the start's year, month, day, hour,
/// minute and second, `%f` its microseconds (6 digits), `%z` the time zone's offset (`+0100`),
/// `%s` Unix seconds, `%%` a percent sign. Fields are local time in `timeZone`. A template must
/// name each second apart (`%s`, or all of `%Y %m %d %H %M %S`), so that a segment's start can
/// be read back from its name alone (`startTime(of:pathName:)`): listing and retention open no file.
public struct RecordPathTemplate: Sendable, Equatable {
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

    /// Fields and their fixed widths in characters (`%s` is variable: nil).
    static let widths: [Character: Int?] = ["Y": 4, "m": 2, "d": 2, "H": 2, "M": 2, "S": 2, "f": 6, "z": 5, "s": nil]

    /// Reads `text`; throws `RecordingSettingError.badTemplate` for an unknown placeholder, a
    /// template that cannot tell two seconds apart, or two variable fields side by side.
    public init(_ text: String, timeZone: TimeZone = .current) throws {
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
    }

    private static func isVariable(_ piece: Piece) -> Bool {
        switch piece {
        case .pathName, .field("s"): return true
        default: return false
        }
    }

    /// Checks a stream's path name for `%path`: 1–128 characters of letters, digits, `-`, `_`, `.`
    /// and `/` between names, never `.` or `..` as a name, never a leading `/`.
    public static func validatePathName(_ name: String) throws {
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
        var rest = Substring(path)
        var values: [Character: Int] = [:]
        var unix: Int64?
        var offsetMinutes: Int?
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .literal(let text):
                guard rest.hasPrefix(text) else { return nil }
                rest = rest.dropFirst(text.count)
            case .pathName:
                guard rest.hasPrefix(pathName) else { return nil }
                rest = rest.dropFirst(pathName.count)
            case .field("s"):
                let digits = rest.prefix { $0 >= "0" && $0 <= "9" }
                guard !digits.isEmpty, digits.count <= 12, let value = Int64(digits) else { return nil }
                // The next piece is a literal or a fixed-width field: digits belong to %s up to it.
                if index + 1 < pieces.count, case .field(let next) = pieces[index + 1], let width = Self.widths[next] ?? nil {
                    guard digits.count > width, let shorter = Int64(digits.dropLast(width)) else { return nil }
                    unix = shorter
                    rest = rest.dropFirst(digits.count - width)
                } else {
                    unix = value
                    rest = rest.dropFirst(digits.count)
                }
            case .field("z"):
                let text = rest.prefix(5)
                guard text.count == 5, let sign = text.first, sign == "+" || sign == "-",
                    text.dropFirst().allSatisfy({ $0 >= "0" && $0 <= "9" }), let hhmm = Int(text.dropFirst())
                else { return nil }
                let minutes = (hhmm / 100) * 60 + hhmm % 100
                guard hhmm % 100 < 60, minutes <= 18 * 60 else { return nil }
                offsetMinutes = sign == "-" ? -minutes : minutes
                rest = rest.dropFirst(5)
            case .field(let code):
                guard let width = Self.widths[code] ?? nil else { return nil }
                let text = rest.prefix(width)
                guard text.count == width, text.allSatisfy({ $0 >= "0" && $0 <= "9" }), let value = Int(text) else { return nil }
                values[code] = value
                rest = rest.dropFirst(width)
            }
        }
        guard rest.isEmpty else { return nil }
        let micros = Double(values["f"] ?? 0) / 1_000_000
        if let unix { return Date(timeIntervalSince1970: Double(unix) + micros) }
        guard let year = values["Y"], let month = values["m"], let day = values["d"], let hour = values["H"],
            let minute = values["M"], let second = values["S"], (1...12).contains(month), (1...31).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = offsetMinutes.flatMap { TimeZone(secondsFromGMT: $0 * 60) } ?? timeZone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components) else { return nil }
        return date.addingTimeInterval(micros)
    }
}
