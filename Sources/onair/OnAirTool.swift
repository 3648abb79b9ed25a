#if os(Linux)
import Foundation
import OnAir

/// The `onair` entry point: picks the subcommand, turns errors into one line and an exit status.
@main
enum OnAirTool {
    static let commands: [any Command.Type] = [
        ProbeCommand.self, EncodeCommand.self, RecordCommand.self, StreamCommand.self, ServeCommand.self, PlayCommand.self,
        EncodersCommand.self, DevicesCommand.self, HashPasswordCommand.self,
    ]

    /// The release of this tool (`onair --version`); scripts/package-deb.sh makes the package's
    /// version from it.
    static let version = "0.1.0"

    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let verbose = arguments.contains("--verbose")
        arguments.removeAll { $0 == "--verbose" }
        LibraryLogging.configure(verbose: verbose)
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
            print(overview)
            exit(arguments.isEmpty ? 2 : 0)
        }
        if name == "--version" {
            print("onair \(version)")
            exit(0)
        }
        arguments.removeFirst()
        guard let command = commands.first(where: { $0.name == name }) else {
            fail("unknown command '\(name)'; run 'onair --help' for the list", status: 2)
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            print(command.help)
            exit(0)
        }
        do {
            var list = ArgumentList(arguments)
            let instance = try command.init(arguments: &list)
            try list.finish()
            exit(try instance.run())
        } catch let error as UsageError {
            fail("\(error.description) (see 'onair \(name) --help')", status: 2)
        } catch let error as any OnAirError {
            fail(error.description, status: error.isInvalidSettings ? 2 : 1)
        } catch {
            fail("\(error)", status: 1)
        }
    }

    static var overview: String {
        var text = "onair — capture, encode (H.264/AAC), record and stream\n\nUsage: onair COMMAND [OPTIONS]\n\nCommands:\n"
        // The names in a column as wide as the longest one and two spaces.
        let width = (commands.map { $0.name.count }.max() ?? 0) + 2
        for command in commands {
            text += "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text +=
            "\nRun 'onair COMMAND --help' for a command's options; --verbose shows FFmpeg's own messages;\n"
            + "'onair --version' prints the version."
        return text
    }

    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("onair: error: \(message)\n".utf8))
        exit(status)
    }
}
#endif
