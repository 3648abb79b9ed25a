#if os(Linux)
/// One `onair` subcommand.
protocol Command: Sendable {
    /// The word that selects the command, e.g. "probe".
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// The full help text.
    static var help: String { get }
    /// Parses the command's arguments.
    init(arguments: inout ArgumentList) throws
    /// Runs the command and returns the process exit status.
    func run() throws -> Int32
}
#endif
