#if os(Linux)
import Foundation
import OnAirTestSupport

/// The fields `onair probe --json` prints, as ffprobe reports them for the same file.
struct FFprobeSummary {
    var streams: [[String: Any]] = []

    init(path: String) throws {
        let info = try Tools.ffprobeJSON(["-count_frames", "-count_packets", "-show_streams", path])
        let frames = try Tools.ffprobeJSON(["-select_streams", "v", "-show_entries", "frame=key_frame,pict_type", path])
        let pictures = frames["frames"] as? [[String: Any]] ?? []
        for stream in info["streams"] as? [[String: Any]] ?? [] {
            guard let type = stream["codec_type"] as? String else { continue }
            var summary: [String: Any] = ["type": type, "codec": stream["codec_name"] ?? ""]
            summary["profile"] = stream["profile"]
            let duration = Double(stream["duration"] as? String ?? "")
            if type == "video" {
                // ffprobe gives level_idc: H.264's is the level × 10, H.265's the level × 30.
                summary["level"] = Double(stream["level"] as? Int ?? 0) / (stream["codec_name"] as? String == "hevc" ? 30 : 10)
                summary["width"] = stream["width"]
                summary["height"] = stream["height"]
                let rate = Self.rational(stream["avg_frame_rate"] as? String)
                summary["frame_rate"] = rate
                let count = Int(stream["nb_read_frames"] as? String ?? "") ?? 0
                summary["frames"] = count
                let keys = pictures.map { ($0["key_frame"] as? Int) == 1 }
                summary["keyframes"] = keys.filter { $0 }.count
                summary["max_gop"] = Self.longestRun(keys)
                summary["b_frames"] = pictures.contains { ($0["pict_type"] as? String) == "B" }
                if let duration {
                    summary["duration"] = duration
                } else if let rate, rate > 0 {
                    summary["duration"] = Double(count) / rate
                }
            } else {
                summary["sample_rate"] = Int(stream["sample_rate"] as? String ?? "")
                summary["channels"] = stream["channels"]
                let packets = Int(stream["nb_read_packets"] as? String ?? "") ?? 0
                summary["frames"] = packets
                // ffprobe estimates ADTS durations from the bitrate and trims MPEG-TS audio oddly;
                // the decoded packet count is exact: each AAC frame holds 1024 samples.
                if let rate = summary["sample_rate"] as? Int, rate > 0 {
                    summary["duration"] = Double(packets * 1024) / Double(rate)
                }
            }
            if let rate = Int(stream["bit_rate"] as? String ?? "") { summary["bit_rate"] = rate }
            streams.append(summary)
        }
    }

    /// "30000/1001" → 29.97…
    static func rational(_ text: String?) -> Double? {
        guard let parts = text?.split(separator: "/"), parts.count == 2,
            let num = Double(parts[0]), let den = Double(parts[1]), den > 0, num > 0
        else { return nil }
        return num / den
    }

    /// The longest run of pictures from a keyframe up to the next keyframe (or the end).
    static func longestRun(_ keyframes: [Bool]) -> Int {
        var longest = 0, current = 0, started = false
        for isKey in keyframes {
            if isKey {
                if started { longest = max(longest, current) }
                started = true
                current = 0
            }
            current += 1
        }
        return max(longest, current)
    }
}

/// How closely each field must match: exact for names and counts, a tolerance for measured values.
enum FieldComparison {
    static func agrees(_ field: String, _ actual: Any?, _ expected: Any) -> Bool {
        switch field {
        case "duration":
            // Within one video frame / AAC frame of ffprobe's duration.
            guard let a = number(actual), let e = number(expected) else { return false }
            return abs(a - e) <= max(0.045, e * 0.01)
        case "bit_rate":
            guard let a = number(actual), let e = number(expected) else { return false }
            return abs(a - e) <= e * 0.05
        case "frame_rate", "level":
            guard let a = number(actual), let e = number(expected) else { return false }
            return abs(a - e) < 0.01
        default:
            if let e = expected as? Int { return number(actual) == Double(e) }
            if let e = expected as? Bool { return (actual as? Bool) == e }
            if let e = number(expected) { return number(actual) == e }
            return (actual as? String) == (expected as? String)
        }
    }

    /// A JSON number as a Double (JSONSerialization may hand back NSNumber, Int or Double).
    static func number(_ value: Any?) -> Double? {
        if let value = value as? Int { return Double(value) }
        if let value = value as? Double { return value }
        if let value = value as? NSNumber { return value.doubleValue }
        return nil
    }
}
#endif
