#if os(Linux)
import Foundation
import OnAirCore

/// The two time forms ONVIF's events service takes and gives: XML Schema durations
/// (`PT60S`, `P1DT2H`, `PT0.5S`) and UTC date-times (`2024-05-01T12:00:00Z`, fractions and
/// `+hh:mm` offsets read). Bounded: at most 64 bytes, components up to a year.
package enum ONVIFTime {
    /// The seconds of a duration (`[-]PnYnMnDTnHnMnS`; a month counts 30 days, a year 365), or nil.
    package static func seconds(duration text: String) -> Double? {
        var bytes = Substring(text.trimmingCharacters(in: .whitespaces))
        guard bytes.utf8.count <= 64 else { return nil }
        var sign = 1.0
        if bytes.hasPrefix("-") {
            sign = -1
            bytes = bytes.dropFirst()
        }
        guard bytes.hasPrefix("P"), bytes.count > 1 else { return nil }
        bytes = bytes.dropFirst()
        var total = 0.0, number = "", inTime = false, any = false
        for character in bytes {
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
                continue
            }
            if character == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
                continue
            }
            guard let value = Double(number), value.isFinite, value <= 366 * 86_400 else { return nil }
            let unit: Double
            switch (character, inTime) {
            case ("Y", false): unit = 365 * 86_400
            case ("M", false): unit = 30 * 86_400
            case ("D", false): unit = 86_400
            case ("H", true): unit = 3600
            case ("M", true): unit = 60
            case ("S", true): unit = 1
            default: return nil
            }
            total += value * unit
            number = ""
            any = true
        }
        guard any, number.isEmpty else { return nil }
        return sign * total
    }

    /// The date of an `xsd:dateTime` (`YYYY-MM-DDThh:mm:ss[.fff](Z|±hh:mm)`; no zone: UTC), read as
    /// RFC 3339 (`PlaybackQuery.parseRFC3339`), or nil.
    package static func date(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.utf8.count <= 64 else { return nil }
        return PlaybackQuery.parseRFC3339(trimmed) ?? PlaybackQuery.parseRFC3339(trimmed + "Z")
    }

    /// `date` as an `xsd:dateTime` in UTC, to the second (`2024-05-01T12:00:00Z`).
    package static func text(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1, parts.hour ?? 0,
            parts.minute ?? 0, parts.second ?? 0)
    }

    /// The seconds from `now` a termination time asks for: a duration, or a date-time less `now`.
    package static func seconds(termination text: String, now: Date) -> Double? {
        if let seconds = seconds(duration: text) { return seconds }
        return date(text).map { $0.timeIntervalSince(now) }
    }
}
#endif
