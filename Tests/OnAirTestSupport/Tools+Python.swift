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
