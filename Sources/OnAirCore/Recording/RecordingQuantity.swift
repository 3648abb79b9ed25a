import Foundation

/// The one syntax of durations and sizes in recording settings (flags and configuration alike).
///
/// A duration is seconds (`90`, `1.5`) or a number with a unit: `s`, `m` (minutes), `h`, `d`
/// (`30s`, `10m`, `1h`, `7d`). A size is bytes (`500000`) or a number with `k`, `M`, `G` or `T`,
/// powers of 1000 (`500M`, `1.5G`; `K` and `g` are read alike). Both refuse negatives, NaN,
/// infinity, empty text and anything after the unit.
package enum RecordingQuantity {
    /// The duration `text` says; throws `RecordingSettingError.badDuration`.
    public static func duration(_ text: String) throws(RecordingSettingError) -> Duration {
        guard let (number, unit) = split(text) else { throw RecordingSettingError.badDuration(text) }
        let factor: Double
        switch unit {
        case "", "s": factor = 1
        case "m": factor = 60
        case "h": factor = 3600
        case "d": factor = 86_400
        default: throw RecordingSettingError.badDuration(text)
        }
        let seconds = number * factor
        guard seconds.isFinite, seconds <= 100 * 365 * 86_400 else { throw RecordingSettingError.badDuration(text) }
        return .seconds(seconds)
    }

    /// Bytes for `text`; throws `RecordingSettingError.badSize`.
    public static func size(_ text: String) throws(RecordingSettingError) -> Int64 {
        guard let (number, unit) = split(text) else { throw RecordingSettingError.badSize(text) }
        let factor: Double
        switch unit.lowercased() {
        case "", "b": factor = 1
        case "k": factor = 1e3
        case "m": factor = 1e6
        case "g": factor = 1e9
        case "t": factor = 1e12
        default: throw RecordingSettingError.badSize(text)
        }
        let bytes = (number * factor).rounded()
        guard bytes.isFinite, bytes <= 1e18 else { throw RecordingSettingError.badSize(text) }
        return Int64(bytes)
    }

    /// A non-negative decimal number and the letters after it; nil when the text is not that.
    private static func split(_ text: String) -> (Double, String)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 32 else { return nil }
        let digits = trimmed.prefix { ($0 >= "0" && $0 <= "9") || $0 == "." }
        let unit = String(trimmed.dropFirst(digits.count))
        guard !digits.isEmpty, digits.filter({ $0 == "." }).count <= 1, digits != ".", unit.count <= 1,
            let number = Double(digits), number.isFinite
        else { return nil }
        return (number, unit)
    }
}
