#if os(Linux)
/// Writes the Prometheus text exposition format (version 0.0.4): one `# HELP` and `# TYPE` line
/// per family, then its samples; label values and help text escaped as the format says.
package struct PrometheusExposition: Sendable {
    /// A family's type.
    package enum Kind: String, Sendable {
        /// Only ever goes up (names end in `_total`).
        case counter
        /// Goes up and down.
        case gauge
    }

    /// The text so far.
    package private(set) var text = ""
    private var names: Set<String> = []

    /// An empty exposition.
    package init() {}

    /// Adds a family with one sample per label set (a family already added is ignored).
    package mutating func add(_ name: String, _ kind: Kind, _ help: String, _ samples: [([(String, String)], Double)]) {
        guard !names.contains(name), !samples.isEmpty else { return }
        names.insert(name)
        text += "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
        for (labels, value) in samples {
            text += name
            if !labels.isEmpty {
                text += "{" + labels.map { "\($0.0)=\"\(Self.escapedLabel($0.1))\"" }.joined(separator: ",") + "}"
            }
            text += " " + Self.format(value) + "\n"
        }
    }

    /// Adds a family of one unlabelled sample.
    package mutating func add(_ name: String, _ kind: Kind, _ help: String, _ value: Double) {
        add(name, kind, help, [([], value)])
    }

    /// A value as the format writes it: whole numbers without a point, `NaN`, `+Inf`, `-Inf`.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    static func escapedHelp(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    static func escapedLabel(_ text: String) -> String {
        escapedHelp(text).replacingOccurrences(of: "\"", with: "\\\"")
    }
}
#endif
