#if os(Linux)
import Foundation
import OnAirTestSupport

/// A child process running in the background during a streaming test, its output in files.
///
/// `stop()` asks ffmpeg to finish ('q' on stdin), then kills; `deinit` always kills, so no child
/// outlives a failed test.
final class StreamTestProcess {
    let process: Process
    let stderrPath: String
    private let input = Pipe()

    /// Starts `executable` (a path or a name on PATH) with `arguments`; stderr goes to `stderrPath`
    /// and stdout to `stdoutPath` (or nowhere); `environment` is added to this process's own.
    init(
        _ executable: String, _ arguments: [String], stderrPath: String, stdoutPath: String? = nil, environment: [String: String] = [:]
    ) throws {
        self.stderrPath = stderrPath
        process = Tools.process(executable, arguments)
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        if let stdoutPath {
            _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        process.standardInput = input
        try process.runUnblocked()
    }

    /// What the process wrote to stderr so far.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits until `ready` holds (up to `timeout` seconds), ending early if the process exits first,
    /// so a peer that failed to start reports its own stderr instead of a bare timeout.
    func waitReady(timeout: Double = 30, _ ready: () -> Bool) -> Bool {
        _ = waitUntil(timeout: timeout) { ready() || !process.isRunning }
        return ready()
    }

    /// Waits up to `timeout` seconds for the process to exit by itself; returns whether it did.
    @discardableResult
    func wait(timeout: Double) -> Bool {
        waitUntil(timeout: timeout) { !process.isRunning }
    }

    /// Asks an ffmpeg to finish its output ('q'), waits up to `grace` seconds, then kills it.
    func stop(grace: Double = 5) {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.write(contentsOf: Data("q".utf8))
        if !wait(timeout: grace) { OnAirTestSupport.kill(process) }
    }

    /// Kills the process at once.
    func kill() { OnAirTestSupport.kill(process) }

    deinit { OnAirTestSupport.kill(process) }
}
#endif
