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
    let stdoutPath: String?
    private let input = Pipe()

    /// Starts `executable` (a path or a name on PATH) with `arguments`; stderr goes to `stderrPath`
    /// and stdout to `stdoutPath` (or nowhere); `environment` is added to this process's own.
    init(
        _ executable: String, _ arguments: [String], stderrPath: String, stdoutPath: String? = nil, environment: [String: String] = [:]
    ) throws {
        self.stderrPath = stderrPath
        self.stdoutPath = stdoutPath
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

    /// What the process wrote to stdout so far (when it went to a file).
    var stdout: String { stdoutPath.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? "" }

    /// The port the process names after `marker` in its ready line — a server of ours started on
    /// port 0 says there which port it bound ("serving http://", "RTSP: rtsp://", "SRT callers:
    /// srt://", "listening 127.0.0.1:") — read from its stderr, then its stdout; waited for up to
    /// `timeout` seconds, ending early if the process exits first.
    func announcedPort(_ marker: String, timeout: Double = 20) throws -> Int {
        try announcedPorts([marker], timeout: timeout)[0]
    }

    /// The ports the process names after each of `markers` (see `announcedPort`), in order.
    func announcedPorts(_ markers: [String], timeout: Double = 20) throws -> [Int] {
        var ports: [Int] = []
        _ = waitUntil(timeout: timeout) {
            let said = stderr + "\n" + stdout
            ports = markers.compactMap { Self.port(in: said, after: $0) }
            return ports.count == markers.count || !process.isRunning
        }
        guard ports.count == markers.count else {
            throw StreamTestError("no port named after \(markers): \(stderr) \(stdout)")
        }
        return ports
    }

    /// The port of the first "`marker`HOST:PORT" in `text`, or of "`marker`PORT".
    static func port(in text: String, after marker: String) -> Int? {
        guard let start = text.range(of: marker) else { return nil }
        let authority = text[start.upperBound...].prefix { !"/?, \n)".contains($0) }
        // HOST:PORT, or a bare port number ("plain HTTP on port N redirects…").
        guard let colon = authority.lastIndex(of: ":") else { return Int(authority) }
        return Int(authority[authority.index(after: colon)...])
    }

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

    /// Waits up to `timeout` seconds for the process to end by itself (then kills it) and returns
    /// its exit status and output, as `Tools.run` does for a process run in the foreground.
    func result(timeout: Double = 300) -> ProcessResult {
        if !wait(timeout: timeout) { kill() }
        let output = stdoutPath.flatMap { FileManager.default.contents(atPath: $0) } ?? Data()
        return ProcessResult(status: process.terminationStatus, stdout: output, stderr: stderr)
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
