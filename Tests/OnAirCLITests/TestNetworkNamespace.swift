#if os(Linux)
import Foundation
import OnAirTestSupport

/// A network namespace of a test's own (`ip netns add`), with a unique name, removed by `remove()`:
/// its loopback is private, so servers in it may bind fixed ports and firewall rules in it touch
/// nothing else on the machine. Needs root.
final class TestNetworkNamespace {
    /// The namespace's name.
    let name: String

    /// Adds a namespace named `prefix`, the process id and a random number.
    init(prefix: String) throws {
        name = "\(prefix)-\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        let result = try Tools.run("ip", ["netns", "add", name])
        guard result.status == 0 else { throw StreamTestError("ip netns add \(name): \(result.stderr)") }
    }

    /// The arguments to `ip` that run `executable` with `arguments` inside the namespace
    /// (`ip netns exec` execs it: the process keeps the pid `ip` was started with).
    func exec(_ executable: String, _ arguments: [String]) -> [String] {
        ["netns", "exec", name, executable] + arguments
    }

    /// Runs `executable` inside the namespace to its end; its stdout, or an error when it failed.
    @discardableResult
    func run(_ executable: String, _ arguments: [String]) throws -> String {
        let result = try Tools.run("ip", exec(executable, arguments))
        guard result.status == 0 else {
            throw StreamTestError("\(executable) \(arguments.joined(separator: " ")) in \(name): \(result.stderr)")
        }
        return result.stdoutText
    }

    /// Deletes the namespace (processes still in it keep it until they end).
    func remove() {
        _ = try? Tools.run("ip", ["netns", "delete", name])
    }
}
#endif
