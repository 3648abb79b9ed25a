#if os(Linux)
import Foundation
import OnAirCore

/// One key of the serve configuration file: its name (a serve flag's long name without the
/// dashes), how it is written (scalar, list, boolean, or a structured key with no flag) and what
/// values it takes. `ServeConfigKey.all` is the table.
package struct ServeConfigKey: Sendable {
    /// How a key is written and turned into command-line arguments.
    public enum Shape: Sendable, Equatable {
        /// One value: `--flag VALUE`.
        case scalar
        /// A list (a repeating flag; one scalar is a list of one): `--flag V1 --flag V2`.
        case list
        /// `true`/`false`: `true` gives the `on` flag, `false` the `off` flag (or nothing).
        case boolean(on: String, off: String?)
        /// A key with no flag, stored for its own parser (`users:`, `tls-*`, the address ranges).
        case stored
    }

    /// What values a scalar (or each item of a list) may take.
    public enum Check: Sendable {
        /// Any text of 1 to `maximumLength` bytes.
        case text(maximumLength: Int)
        /// A whole number in the range.
        case integer(ClosedRange<Int>)
        /// A finite number in the range.
        case number(ClosedRange<Double>)
        /// A number greater than zero.
        case positive
        /// A rate such as `2M`, `800k` or `128000`.
        case rate
        /// `WIDTHxHEIGHT`.
        case size
        /// `ADDR:PORT`, `[V6ADDR]:PORT` or `PORT`.
        case listen
        /// `MIN-MAX`, UDP ports 1024–65535.
        case portRange
        /// `BYTES:SECONDS`.
        case dataRateLimit
        /// Numbers separated by commas.
        case numbers
        /// A recording's DURATION: seconds or a number with `s`/`m`/`h`/`d` (`RecordingQuantity`).
        case duration
        /// A recording's SIZE: bytes or a number with `k`/`M`/`G`/`T` (`RecordingQuantity`).
        case byteSize
        /// One of the words.
        case choice([String])
        /// `true` or `false` (also yes/no, on/off).
        case boolean
        /// An address range (`ADDR/BITS` or `ADDR`).
        case addressRange
        /// Anything: the key's own parser judges it (`users:`).
        case node
    }

    /// The name, e.g. `max-viewers`.
    public let name: String
    /// The command-line spellings, the first being the one the file's values are given as.
    public let flags: [String]
    /// How the key is written.
    public let shape: Shape
    /// What values it takes.
    public let check: Check
    /// Whether its values are secrets (redacted by `--print-config`).
    public let secret: Bool
    /// The default, as `--print-config` shows it for a key not set (nil: none).
    public let defaultText: String?

    init(_ name: String, _ check: Check, flags: [String]? = nil, secret: Bool = false, default defaultText: String? = nil) {
        self.init(name, .scalar, check, flags: flags, secret: secret, default: defaultText)
    }

    init(
        _ name: String, _ shape: Shape, _ check: Check, flags: [String]? = nil, secret: Bool = false,
        default defaultText: String? = nil
    ) {
        self.name = name
        self.shape = shape
        self.check = check
        self.flags = flags ?? (shape == .stored ? [] : ["--" + name])
        self.secret = secret
        self.defaultText = defaultText
    }

    /// The environment variable that overrides the key: `ONAIR_` and the name upper-cased, dashes
    /// to underscores (`ONAIR_MAX_VIEWERS`).
    public var environmentName: String { "ONAIR_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// The command-line spellings a boolean key or a flagged key answers to (both of a boolean's flags).
    var allFlags: [String] {
        if case .boolean(let on, let off) = shape { return [on] + (off.map { [$0] } ?? []) }
        return flags
    }

    /// The key named `name`, or nil.
    public static func named(_ name: String) -> ServeConfigKey? { all.first { $0.name == name } }

    /// Every key, in the order `--print-config` shows them.
    public static let all: [ServeConfigKey] = [
        ServeConfigKey("video", .text(maximumLength: 4096), default: "synthetic"),
        ServeConfigKey("audio", .text(maximumLength: 4096), default: "synthetic"),
        ServeConfigKey("duration", .positive),
        ServeConfigKey("synthetic-audio-ppm", .number(-50_000...50_000), default: "0"),
        ServeConfigKey("timeline-start", .number(0...10_000_000), default: "0"),
        ServeConfigKey("listen", .listen, default: "127.0.0.1:8080"),
        ServeConfigKey("max-viewers", .integer(1...10_000), default: "32"),
        ServeConfigKey("token", .list, .text(maximumLength: 256), secret: true),
        ServeConfigKey("srt-port", .integer(0...65_535)),
        ServeConfigKey("rtsp-port", .integer(0...65_535)),
        ServeConfigKey("rtsps-port", .integer(0...65_535)),
        ServeConfigKey("rtsp-plain", .choice(["loopback", "on", "off"]), default: "loopback"),
        ServeConfigKey("webrtc", .boolean(on: "--webrtc", off: nil), .boolean, default: "false"),
        ServeConfigKey("webrtc-ports", .portRange),
        ServeConfigKey("webrtc-advertise", .text(maximumLength: 255)),
        ServeConfigKey("onvif", .boolean(on: "--onvif", off: nil), .boolean, default: "false"),
        ServeConfigKey("onvif-advertise", .text(maximumLength: 255)),
        ServeConfigKey("onvif-secrets", .text(maximumLength: 4096)),
        ServeConfigKey("onvif-discovery", .choice(["on", "off"])),
        ServeConfigKey("onvif-listen", .listen),
        ServeConfigKey("onvif-name", .text(maximumLength: 64), default: "OnAir"),
        ServeConfigKey("onvif-location", .text(maximumLength: 128)),
        ServeConfigKey("motion", .boolean(on: "--motion", off: nil), .boolean, default: "false"),
        ServeConfigKey("motion-sensitivity", .number(0...1), default: "0.5"),
        ServeConfigKey("motion-min-area", .number(0.001...1), default: "0.02"),
        ServeConfigKey("motion-hold", .number(0.2...3600), default: "2"),
        ServeConfigKey("on-motion", .text(maximumLength: 4096)),
        ServeConfigKey("viewer-timeout", .positive, default: "5"),
        ServeConfigKey("viewer-queue", .integer(65_536...(1 << 40))),
        ServeConfigKey("hls-time", .positive, default: "2"),
        ServeConfigKey("hls-variant", .choice(["mpegts", "fmp4", "lowlatency"]), default: "mpegts"),
        ServeConfigKey("hls-part-duration", .positive, default: "0.2"),
        ServeConfigKey("output", .list, .text(maximumLength: 4096), flags: ["--output", "-o"]),
        ServeConfigKey("stats-json", .text(maximumLength: 4096)),
        // Segmented recording: DURATION and SIZE in RecordingQuantity's one syntax.
        ServeConfigKey("record-path", .text(maximumLength: 4096)),
        ServeConfigKey("record-format", .choice(["fmp4", "mpegts"]), default: "fmp4"),
        ServeConfigKey("record-segment-duration", .duration, default: "1h"),
        ServeConfigKey("record-part-duration", .duration, default: "1s"),
        ServeConfigKey("record-delete-after", .duration),
        ServeConfigKey("record-max-size", .byteSize),
        ServeConfigKey("record-min-free", .byteSize),
        ServeConfigKey("record-clock-sync", .choice(["wait", "ignore"]), default: "wait"),
        ServeConfigKey("on-segment-complete", .text(maximumLength: 4096)),
        ServeConfigKey("size", .size),
        ServeConfigKey("fps", .positive),
        ServeConfigKey("bitrate", .rate, default: "2.5M"),
        ServeConfigKey("data-rate-limit", .list, .dataRateLimit),
        ServeConfigKey("sub-size", .size),
        ServeConfigKey("sub-fps", .positive, default: "5"),
        ServeConfigKey("sub-bitrate", .rate),
        ServeConfigKey("sub-codec", .choice(["h264", "h265"])),
        ServeConfigKey("keyint", .integer(1...100_000), default: "60"),
        ServeConfigKey("keyint-duration", .number(0...3600), default: "2"),
        ServeConfigKey("codec", .choice(["h264", "h265"]), default: "h264"),
        ServeConfigKey("profile", .choice(["baseline", "main", "high"]), default: "high"),
        ServeConfigKey("level", .text(maximumLength: 8), default: "auto"),
        ServeConfigKey("bframes", .boolean(on: "--bframes", off: "--no-bframes"), .boolean, default: "false"),
        ServeConfigKey("realtime", .boolean(on: "--realtime", off: "--no-realtime"), .boolean, default: "true"),
        ServeConfigKey("force-keyframe-at", .numbers),
        ServeConfigKey("encoder", .text(maximumLength: 64), default: "auto"),
        ServeConfigKey("preset", .text(maximumLength: 64), default: "veryfast"),
        ServeConfigKey("audio-rate", .integer(1...768_000)),
        ServeConfigKey("audio-channels", .integer(1...8)),
        ServeConfigKey("audio-bitrate", .rate, default: "128k"),
        ServeConfigKey("no-video", .boolean(on: "--no-video", off: nil), .boolean, default: "false"),
        ServeConfigKey("no-audio", .boolean(on: "--no-audio", off: nil), .boolean, default: "false"),
        ServeConfigKey("metrics-addresses", .stored, .addressRange, default: "[127.0.0.0/8, ::1/128]"),
        ServeConfigKey("health-addresses", .stored, .addressRange, default: "[127.0.0.0/8, ::1/128]"),
        // TLS: flags too. Users: a structured key (ServeConfiguration.apply parses it).
        ServeConfigKey("tls-cert", .text(maximumLength: 4096)),
        ServeConfigKey("tls-key", .text(maximumLength: 4096)),
        ServeConfigKey("tls-self-signed", .boolean(on: "--tls-self-signed", off: nil), .boolean, default: "false"),
        ServeConfigKey("redirect-listen", .listen),
        ServeConfigKey("users", .stored, .node),
    ]

    /// Why `text` is not a value of this key, or nil when it is.
    public func problem(with text: String) -> String? {
        switch check {
        case .text(let maximumLength):
            return text.isEmpty || text.utf8.count > maximumLength ? "takes text of 1–\(maximumLength) bytes" : nil
        case .integer(let range):
            guard let value = Int(text), range.contains(value) else {
                return "takes a whole number \(range.lowerBound)–\(range.upperBound) (got '\(text)')"
            }
            return nil
        case .number(let range):
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                return "takes a number \(Self.format(range.lowerBound))–\(Self.format(range.upperBound)) (got '\(text)')"
            }
            return nil
        case .positive:
            guard let value = Double(text), value.isFinite, value > 0 else { return "takes a positive number (got '\(text)')" }
            return nil
        case .rate:
            return Self.isRate(text) ? nil : "takes a rate such as 2M, 800k or 128000 (got '\(text)')"
        case .size:
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), (2...16_384).contains(width),
                (2...16_384).contains(height)
            else { return "takes WIDTHxHEIGHT, e.g. 1280x720 (got '\(text)')" }
            return nil
        case .listen:
            return Self.isListenAddress(text) ? nil : "takes ADDR:PORT, [V6ADDR]:PORT or PORT (got '\(text)')"
        case .portRange:
            let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
            guard bounds.count == 2, let low = bounds[0], let high = bounds[1], low >= 1024, low <= high, high <= 65_535 else {
                return "takes MIN-MAX, UDP ports 1024–65535 (got '\(text)')"
            }
            return nil
        case .dataRateLimit:
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let bytes = Int(parts[0]), bytes > 0, let seconds = Double(parts[1]), seconds.isFinite,
                seconds > 0
            else { return "takes BYTES:SECONDS, e.g. 375000:1 (got '\(text)')" }
            return nil
        case .numbers:
            let items = text.split(separator: ",", omittingEmptySubsequences: false)
            guard !items.isEmpty, items.count <= 10_000, items.allSatisfy({ Double($0)?.isFinite ?? false }) else {
                return "takes numbers separated by commas (got '\(text)')"
            }
            return nil
        case .duration:
            return (try? RecordingQuantity.duration(text)) == nil
                ? "takes a duration: seconds or a number with s, m, h or d (got '\(text)')" : nil
        case .byteSize:
            return (try? RecordingQuantity.size(text)) == nil
                ? "takes a size: bytes or a number with k, M, G or T, powers of 1000 (got '\(text)')" : nil
        case .choice(let words):
            return words.contains(text.lowercased()) ? nil : "takes \(words.joined(separator: ", ")) (got '\(text)')"
        case .boolean:
            return Self.boolean(text) == nil ? "takes true or false (got '\(text)')" : nil
        case .addressRange:
            do {
                _ = try ServeAddressRange(text)
                return nil
            } catch {
                return "takes an address range such as 192.168.1.0/24 or ::1: \(error)"
            }
        case .node:
            return nil
        }
    }

    /// `true`/`yes`/`on` → true, `false`/`no`/`off` → false (any case), else nil.
    public static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "on": true
        case "false", "no", "off": false
        default: nil
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    private static func isRate(_ text: String) -> Bool {
        var digits = Substring(text.lowercased())
        if digits.hasSuffix("k") || digits.hasSuffix("m") { digits = digits.dropLast() }
        guard let value = Double(digits), value.isFinite, value > 0 else { return false }
        return true
    }

    private static func isListenAddress(_ text: String) -> Bool {
        func port(_ text: Substring) -> Bool { Int(text).map { (0...65_535).contains($0) } ?? false }
        if text.hasPrefix("[") {
            guard let end = text.firstIndex(of: "]") else { return false }
            let host = text[text.index(after: text.startIndex)..<end]
            let rest = text[text.index(after: end)...]
            return !host.isEmpty && rest.hasPrefix(":") && port(rest.dropFirst())
        }
        guard let colon = text.lastIndex(of: ":") else { return port(Substring(text)) }
        let host = text[..<colon]
        return !host.isEmpty && !host.contains(":") && port(text[text.index(after: colon)...])
    }
}
#endif
