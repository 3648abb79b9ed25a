#if os(Linux)
/// A usage mistake on the command line; printed as one line, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The arguments after the subcommand, consumed option by option.
///
/// Options take `--name value` or `--name=value`; flags take `--name`; whatever is left that does
/// not start with `-` is positional. `finish()` rejects anything not consumed.
struct ArgumentList {
    private var arguments: [String]

    init(_ arguments: [String]) { self.arguments = arguments }

    /// Removes `name` (or any of its aliases) and reports whether it was present.
    mutating func flag(_ names: String...) -> Bool {
        var found = false
        arguments.removeAll { argument in
            let hit = names.contains(argument)
            found = found || hit
            return hit
        }
        return found
    }

    /// Removes the last `--name value` and returns the value, or nil when absent.
    mutating func option(_ names: String...) throws -> String? {
        try values(names).last
    }

    /// Removes every `--name value` (repeatable option) and returns the values in order.
    mutating func options(_ names: String...) throws -> [String] {
        try values(names)
    }

    private mutating func values(_ names: [String]) throws -> [String] {
        var found: [String] = []
        var kept: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if let name = names.first(where: { argument.hasPrefix($0 + "=") }) {
                found.append(String(argument.dropFirst(name.count + 1)))
            } else if names.contains(argument) {
                guard index + 1 < arguments.count else { throw UsageError("\(argument) needs a value") }
                found.append(arguments[index + 1])
                index += 1
            } else {
                kept.append(argument)
            }
            index += 1
        }
        arguments = kept
        return found
    }

    /// The arguments not taken yet, in order.
    var remaining: [String] { arguments }

    /// Puts `more` before the arguments not taken yet (a configuration file's, which the command line's follow).
    mutating func prepend(_ more: [String]) { arguments = more + arguments }

    /// Removes and returns the positional arguments (those not starting with "-", and "-" itself).
    /// Whether `name` is among the arguments not taken yet (nothing is taken).
    func contains(_ name: String) -> Bool { arguments.contains(name) }

    mutating func positionals() -> [String] {
        let positional = arguments.filter { !$0.hasPrefix("-") || $0 == "-" }
        arguments.removeAll { !$0.hasPrefix("-") || $0 == "-" }
        return positional
    }

    /// Throws if any argument was not consumed.
    func finish() throws {
        if let unknown = arguments.first { throw UsageError("unknown option '\(unknown)'") }
    }
}
#endif
