#if os(Linux)
import Foundation
import OnAir

/// Turns a probe report into the human-readable summary `onair probe` prints.
enum ProbeFormatter {
    static func text(for report: ProbeReport, path: String) -> String {
        var lines = ["\(path) (\(report.format))"]
        for (index, stream) in report.streams.enumerated() {
            lines.append("  #\(index) " + (stream.type == "video" ? video(stream) : audio(stream)))
        }
        if let units = report.units {
            lines.append("")
            lines.append("  stream  offset/pts  type                  size  slice")
            for unit in units {
                let place = unit.offset.map(String.init) ?? unit.pts.map { String(format: "%.3f", $0) } ?? "-"
                lines.append(
                    "  "
                        + [
                            pad("#\(unit.stream)", 6), pad(place, 10, right: true), "  " + pad(unit.type, 18),
                            pad(String(unit.size), 8, right: true), "  " + (unit.sliceType ?? ""),
                        ].joined())
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func video(_ s: ProbeReport.Stream) -> String {
        let chroma = ["4:0:0", "4:2:0", "4:2:2", "4:4:4"][min(max(s.chromaFormat ?? 1, 0), 3)]
        var line = "video: \(s.codec == "hevc" ? "H.265" : "H.264") \(s.profile)"
        if let tier = s.tier { line += ", \(tier) tier" }
        if let level = s.level { line += " @ level \(format(level))" }
        line += ", \(s.width ?? 0)x\(s.height ?? 0)"
        if s.codedWidth != s.width || s.codedHeight != s.height {
            line += " (coded \(s.codedWidth ?? 0)x\(s.codedHeight ?? 0))"
        }
        line += ", \(chroma) \(s.bitDepth ?? 8)-bit"
        if let entropy = s.entropyCoding { line += ", \(entropy)" }
        line += (s.interlaced ?? false) ? ", interlaced" : ", progressive"
        if let rate = s.frameRate { line += ", \(format(rate)) fps" }
        line += "\n       \(s.frames) frames, \(s.keyframes ?? 0) \(s.codec == "hevc" ? "IRAP" : "IDR"), max GOP \(s.maxGop ?? 0)"
        line += ", B-frames: \((s.bFrames ?? false) ? "yes" : "no")"
        line += ", " + String(format: "%.3f s, %.0f kb/s", s.duration, Double(s.bitRate) / 1000)
        if s.damaged > 0 { line += ", \(s.damaged) damaged units skipped" }
        return line
    }

    private static func audio(_ s: ProbeReport.Stream) -> String {
        var line = "audio: AAC \(s.profile), \(s.sampleRate ?? 0) Hz, \(s.channels ?? 0) channels"
        line += "\n       \(s.frames) frames, " + String(format: "%.3f s, %.0f kb/s", s.duration, Double(s.bitRate) / 1000)
        if s.damaged > 0 { line += ", \(s.damaged) damaged frames skipped" }
        return line
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(format: "%.0f", value) : String(format: "%g", value)
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        guard text.count < width else { return text }
        let fill = String(repeating: " ", count: width - text.count)
        return right ? fill + text : text + fill
    }
}
#endif
