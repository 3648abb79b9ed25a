import Foundation

extension Tools {
    /// The virtual environment `scripts/setup.sh` makes for aiortc where the system's Python
    /// takes no pip packages (Debian 13's is externally managed).
    public static let testVirtualEnvironment = "/opt/onair-venv"

    /// The Python interpreter that has aiortc: `ONAIR_PYTHON` when set, else the one in
    /// `testVirtualEnvironment` when it exists, else `python3` on PATH, resolved to the
    /// interpreter itself (pyenv's `python3` is a shim script whose child a SIGTERM would miss).
    public static let aiortcPython: String = {
        if let chosen = ProcessInfo.processInfo.environment["ONAIR_PYTHON"], !chosen.isEmpty { return chosen }
        let inEnvironment = testVirtualEnvironment + "/bin/python3"
        if FileManager.default.isExecutableFile(atPath: inEnvironment) { return inEnvironment }
        let found = try? run("python3", ["-c", "import sys; print(sys.executable)"]).stdoutText
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return found.flatMap { $0.isEmpty ? nil : $0 } ?? "python3"
    }()

    /// Whether `aiortcPython` imports aiortc and PyAV.
    public static var hasAiortc: Bool { (try? run(aiortcPython, ["-c", "import aiortc, av"]).status) == 0 }
}

extension Tools {
    /// Whether the long tier runs: soak and load tests of a minute or more each (viewer churn,
    /// 16-client loads, shaped-link bit-rate following). `scripts/test.sh --long` sets
    /// ONAIR_LONG_TESTS=1; the default run skips them, and shorter tests cover the same paths
    /// (the stall cut, four WebRTC viewers, one shaped-link step down and up).
    public static var longTests: Bool { ProcessInfo.processInfo.environment["ONAIR_LONG_TESTS"] == "1" }
}
