import Foundation
import OnAir

extension ServeCommand {
    static let configHelp = """
          --config FILE                read settings from FILE (YAML: every flag above as a key without the
                                       dashes, lists for repeatable flags, see README "Run as a service");
                                       ONAIR_<KEY> environment variables override the file, flags override both
          --print-config               print the effective configuration (secrets redacted) and exit
        """

    /// Takes `--config FILE` and `--print-config`, resolves the file and the `ONAIR_*` environment
    /// against the remaining arguments, and puts what they say before those arguments.
    static func configuration(_ arguments: inout ArgumentList) throws -> (resolution: ServeConfigResolution, print: Bool) {
        let file = try arguments.option("--config")
        let print = arguments.flag("--print-config")
        let resolution = try ServeConfigResolution(
            file: file, environment: ProcessInfo.processInfo.environment, commandLine: arguments.remaining)
        arguments.prepend(resolution.arguments)
        return (resolution, print)
    }
}
