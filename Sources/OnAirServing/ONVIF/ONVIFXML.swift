#if os(Linux)
import OnAirCore

/// XML text as ONVIF's answers write it.
package enum ONVIFXML {
    /// `text` with `&`, `<`, `>`, `"` and `'` escaped (for element text and attribute values).
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
#endif
