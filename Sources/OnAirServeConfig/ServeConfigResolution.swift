#if os(Linux)
import Foundation

/// The effective serve configuration: a file's keys, overridden by `ONAIR_*` environment
/// variables, overridden by command-line flags (built-in defaults below all three).
///
/// What the file and the environment say is turned into command-line arguments
/// (`arguments`) that go before the real command line's, so one parser (the CLI's) applies
/// every setting the same way whatever its origin; keys with no flag (`users:`, `tls-*`, the
/// address ranges) are kept in `stored`. Every value is checked against `ServeConfigKey.all`
/// first, so a bad one is refused naming file, line and key.
public struct ServeConfigResolution: Sendable {
    /// Where a setting came from.
    package enum Origin: Sendable, Equatable, CustomStringConvertible {
        /// The file, at a line.
        case file(String, line: Int)
        /// An environment variable.
        case environment(String)
        /// The command line.
        case commandLine

        /// `FILE:LINE`, `ONAIR_X` or `command line`.
        public var description: String {
            switch self {
            case .file(let path, let line): "\(path):\(line)"
            case .environment(let name): name
            case .commandLine: "command line"
            }
        }
    }

    /// One key set by the file, the environment or the command line.
    package struct Setting: Sendable {
        /// The key.
        public var key: ServeConfigKey
        /// Its values (one for a scalar or boolean, any number for a list).
        public var values: [String]
        /// The node as written, for a structured key (`users:`).
        package var node: ServeConfigNode?
        /// Where it came from.
        public var origin: Origin
    }

    /// The settings given, by key name.
    package private(set) var settings: [String: Setting] = [:]
    /// The arguments the file and the environment stand for, to go before the command line's.
    public private(set) var arguments: [String] = []

    /// Resolves `file` (nil: none), `environment` and `commandLine` (the serve arguments, without
    /// `--config`). Throws `ServeConfigError` naming the file and line (or the variable) and the key.
    public init(file: String?, environment: [String: String], commandLine: [String]) throws {
        let root = try file.map { try ServeConfigReader.read(contentsOf: $0) }
        try self.init(root: root, file: file ?? "", environment: environment, commandLine: commandLine)
    }

    /// Resolves an already read tree (`file` names it in messages).
    package init(root: ServeConfigNode?, file: String, environment: [String: String], commandLine: [String]) throws {
        var fromFile: [String: Setting] = [:]
        if let root {
            guard case .map(let entries) = root.content else {
                throw ServeConfigError(source: file, line: root.line, key: nil, reason: "the file must be a mapping of keys to values")
            }
            for entry in entries {
                guard let key = ServeConfigKey.named(entry.key) else {
                    throw ServeConfigError(source: file, line: entry.line, key: entry.key, reason: "unknown key")
                }
                fromFile[key.name] = try Self.setting(key, entry.value, origin: .file(file, line: entry.line), file: file)
            }
        }
        for key in ServeConfigKey.all {
            if let given = Self.commandLineValues(key, commandLine) {
                settings[key.name] = Setting(key: key, values: given, node: nil, origin: .commandLine)
                continue
            }
            if let text = environment[key.environmentName], !text.isEmpty {
                let origin = Origin.environment(key.environmentName)
                guard key.check.isScalar else {
                    throw ServeConfigError(
                        source: "environment \(key.environmentName)", line: nil, key: key.name,
                        reason: "a structured key cannot come from the environment")
                }
                let node = ServeConfigNode(.scalar(text, plain: false), line: 0)
                settings[key.name] = try Self.setting(key, node, origin: origin, file: file)
                arguments += Self.arguments(for: settings[key.name]!)
                continue
            }
            if let setting = fromFile[key.name] {
                settings[key.name] = setting
                arguments += Self.arguments(for: setting)
            }
        }
    }

    /// The node of a stored key (`users:`), as written in the file, or nil.
    package func node(_ name: String) -> ServeConfigNode? { settings[name]?.node }

    /// The address ranges under `name` (`metrics-addresses` or `health-addresses`): loopback when not set.
    public func addressRanges(_ name: String) -> [ServeAddressRange] {
        guard let values = settings[name]?.values else { return ServeAddressRange.loopback }
        return values.compactMap { try? ServeAddressRange($0) }
    }

    /// The effective configuration as YAML (itself a valid configuration file), every key in
    /// table order, each set one with where it came from; unset keys as comments with their
    /// default. Secrets (tokens, passwords) read `<redacted>`.
    public func printed() -> String {
        var lines = ["# onair serve: the effective configuration (file < ONAIR_* environment < command line)"]
        for key in ServeConfigKey.all {
            guard let setting = settings[key.name] else {
                lines.append("# \(key.name): " + (key.defaultText.map { "\($0)  " } ?? "") + "(not set)")
                continue
            }
            let origin = "  # from \(setting.origin)"
            if let node = setting.node {
                lines.append("\(key.name):" + origin)
                lines += Self.emit(node, indent: 1, secretKeys: ["password", "token"])
                continue
            }
            let values = key.secret ? setting.values.map { _ in "<redacted>" } : setting.values
            switch key.shape {
            case .list:
                lines.append("\(key.name): [" + values.map(Self.quoted).joined(separator: ", ") + "]" + origin)
            case .stored where !key.check.isSingle:
                lines.append("\(key.name): [" + values.map(Self.quoted).joined(separator: ", ") + "]" + origin)
            default:
                let value = values.first ?? ""
                lines.append(
                    "\(key.name): " + (ServeConfigKey.boolean(value) != nil && key.check.isBoolean ? value : Self.quoted(value)) + origin)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Checks one key's node and makes its setting.
    private static func setting(_ key: ServeConfigKey, _ node: ServeConfigNode, origin: Origin, file: String) throws -> Setting {
        func refuse(_ at: ServeConfigNode, _ reason: String) -> ServeConfigError {
            if case .environment(let name) = origin {
                return ServeConfigError(source: "environment \(name)", line: nil, key: key.name, reason: reason)
            }
            return ServeConfigError(source: file, line: at.line, key: key.name, reason: reason)
        }
        func scalar(_ item: ServeConfigNode) throws -> String {
            guard let text = item.scalar else { throw refuse(item, "takes a value, not \(item.kindName)") }
            if let problem = key.problem(with: text) { throw refuse(item, problem) }
            return text
        }
        if case .node = key.check {
            guard !node.isNull else { throw refuse(node, "takes a value, not \(node.kindName)") }
            return Setting(key: key, values: [], node: node, origin: origin)
        }
        let isList = key.shape == .list || (key.shape == .stored && !key.check.isSingle)
        if isList {
            let items: [ServeConfigNode]
            if case .list(let list) = node.content { items = list } else { items = [node] }
            guard items.count <= 1_000 else { throw refuse(node, "more than 1000 items") }
            return Setting(key: key, values: try items.map(scalar), node: nil, origin: origin)
        }
        var text = try scalar(node)
        if case .boolean = key.check { text = ServeConfigKey.boolean(text)! ? "true" : "false" }
        return Setting(key: key, values: [text], node: nil, origin: origin)
    }

    /// The command-line arguments a setting from the file or the environment stands for.
    private static func arguments(for setting: Setting) -> [String] {
        let key = setting.key
        switch key.shape {
        case .stored:
            return []
        case .boolean(let on, let off):
            if setting.values.first == "true" { return [on] }
            return off.map { [$0] } ?? []
        case .scalar, .list:
            return setting.values.flatMap { [key.flags[0], $0] }
        }
    }

    /// The key's values on the command line (nil when none of its flags is there).
    private static func commandLineValues(_ key: ServeConfigKey, _ arguments: [String]) -> [String]? {
        if case .boolean(let on, let off) = key.shape {
            if let off, arguments.contains(off) { return ["false"] }
            return arguments.contains(on) ? ["true"] : nil
        }
        var values: [String] = []
        var index = 0
        var found = false
        while index < arguments.count {
            let argument = arguments[index]
            if let flag = key.flags.first(where: { argument.hasPrefix($0 + "=") }) {
                values.append(String(argument.dropFirst(flag.count + 1)))
                found = true
            } else if key.flags.contains(argument) {
                if index + 1 < arguments.count { values.append(arguments[index + 1]) }
                found = true
                index += 1
            }
            index += 1
        }
        guard found else { return nil }
        return key.shape == .list ? values : values.suffix(1)
    }

    /// A scalar for YAML: plain when that reads back the same, else double-quoted.
    static func quoted(_ text: String) -> String {
        let plainSafe = text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "_./@+-".unicodeScalars.contains(scalar))
        }
        let special = ["", "~", "null", "true", "false", "yes", "no", "on", "off", "y", "n"].contains(text.lowercased())
        if plainSafe && !special && !text.hasPrefix("-") && !text.hasPrefix(".") { return text }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if yamlPrintable(scalar) {
                    out.unicodeScalars.append(scalar)
                } else if scalar.value <= 0xFF {
                    out += String(format: "\\x%02X", scalar.value)
                } else if scalar.value <= 0xFFFF {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out += String(format: "\\U%08X", scalar.value)
                }
            }
        }
        return out + "\""
    }

    /// Whether YAML (and libyaml, which reads the file back) takes `scalar` as it is inside a
    /// double-quoted scalar: printable, and no line break (NEL, LS and PS are breaks to YAML 1.1,
    /// and a break inside quotes folds into a space). The rest is written as an escape.
    static func yamlPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0xA0...0x2027, 0x202A...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// A node as YAML block lines, values under `secretKeys` redacted.
    static func emit(_ node: ServeConfigNode, indent: Int, secretKeys: Set<String>) -> [String] {
        let pad = String(repeating: "  ", count: indent)
        switch node.content {
        case .scalar(let text, _):
            return [pad + (node.isNull ? "~" : quoted(text))]
        case .list(let items):
            return items.flatMap { item -> [String] in
                switch item.content {
                case .scalar: return [pad + "- " + (item.isNull ? "~" : quoted(item.scalar ?? ""))]
                default:
                    var lines = emit(item, indent: indent + 1, secretKeys: secretKeys)
                    if let first = lines.first {
                        lines[0] = pad + "- " + first.dropFirst(pad.count + 2)
                    }
                    return lines
                }
            }
        case .map(let entries):
            return entries.flatMap { entry -> [String] in
                if secretKeys.contains(entry.key) { return [pad + quoted(entry.key) + ": <redacted>"] }
                if case .scalar = entry.value.content {
                    return [pad + quoted(entry.key) + ": " + (entry.value.isNull ? "~" : quoted(entry.value.scalar ?? ""))]
                }
                return [pad + quoted(entry.key) + ":"] + emit(entry.value, indent: indent + 1, secretKeys: secretKeys)
            }
        }
    }
}

extension ServeConfigKey.Check {
    /// Whether a stored key of this check takes one value (not a list).
    var isSingle: Bool {
        switch self {
        case .addressRange, .node: false
        default: true
        }
    }

    /// Whether the check takes `true` or `false`.
    var isBoolean: Bool {
        if case .boolean = self { return true }
        return false
    }

    /// Whether a value can come from the environment (not a structured node).
    var isScalar: Bool {
        if case .node = self { return false }
        return true
    }
}
#endif
