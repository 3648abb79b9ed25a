import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a finished child process printed and returned.
public struct ProcessResult: Sendable {
    /// The exit status.
    public var status: Int32
    /// Everything written to standard output.
    public var stdout: Data
    /// Everything written to standard error, as text.
    public var stderr: String
    /// Standard output as UTF-8 text.
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

    /// A result as a process that ran in the background left it.
    public init(status: Int32, stdout: Data, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs command-line tools (ffmpeg, ffprobe, the built `onair`) for tests and makes test media.
public enum Tools {
    /// A process (not started) for `executable` — a path, or a name looked up on PATH — and `arguments`.
    public static func process(_ executable: String, _ arguments: [String]) -> Process {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        return process
    }

    /// Whether the long tier runs: soak and load tests of a minute or more each (viewer churn,
    /// 16-client loads, shaped-link bit-rate following). `scripts/test.sh --long` sets
    /// ONAIR_LONG_TESTS=1; the default run skips them, and shorter tests cover the same paths
    /// (the stall cut, four WebRTC viewers, one shaped-link step down and up).
    public static var longTests: Bool { ProcessInfo.processInfo.environment["ONAIR_LONG_TESTS"] == "1" }

    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments` and waits for it —
    /// at most `timeout` seconds: a child still running then is killed (status 137, and its stderr
    /// ends with a line saying so), so that a hung tool fails its test instead of holding the whole
    /// run until CI's own limit.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil, timeout: Double = 300) throws
        -> ProcessResult
    {
        let process = process(executable, arguments)
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        let inPipe = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : inPipe
        try process.runUnblocked()
        let deadline = ChildDeadline(process, seconds: timeout)
        if let stdin {
            inPipe.fileHandleForWriting.write(stdin)
            try? inPipe.fileHandleForWriting.close()
        }
        // Read both pipes concurrently so a chatty child cannot block on a full pipe.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = errPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let killed = deadline.cancel()
        let stderr = String(decoding: errData, as: UTF8.self)
        return ProcessResult(
            status: killed ? 137 : process.terminationStatus, stdout: outData,
            stderr: killed ? stderr + "\n[test: killed after \(timeout) s: \(executable) \(arguments.joined(separator: " "))]" : stderr)
    }

    /// Runs ffmpeg quietly with `arguments`, throwing with ffmpeg's message when it fails.
    public static func ffmpeg(_ arguments: [String]) throws {
        let result = try run("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"] + arguments)
        guard result.status == 0 else { throw ToolError.failed("ffmpeg \(arguments.joined(separator: " ")): \(result.stderr)") }
    }

    /// Runs ffprobe with `arguments` plus JSON output and returns the parsed JSON object.
    public static func ffprobeJSON(_ arguments: [String]) throws -> [String: Any] {
        let result = try run("ffprobe", ["-v", "error", "-of", "json"] + arguments)
        guard result.status == 0 else { throw ToolError.failed("ffprobe: \(result.stderr)") }
        guard let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] else {
            throw ToolError.failed("ffprobe printed no JSON object")
        }
        return object
    }

    /// The preview page's source files (Sources/OnAirServing/Preview/page/), by name.
    public static func previewPageFiles() throws -> [String: String] {
        let directory = packageRoot.appendingPathComponent("Sources/OnAirServing/Preview/page")
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            files[name] = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        }
        return files
    }

    /// A fresh, empty temporary directory for one test.
    public static func temporaryDirectory(_ label: String = "onair-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The package's root directory (found from this source file's location).
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The `onair` executable under test: `ONAIR_EXECUTABLE` when set (scripts/test.sh points it at
    /// a release build, so real-time tests measure the tool and not a debug build), else the one
    /// built next to the test bundle.
    public static var onairExecutable: String {
        if let path = ProcessInfo.processInfo.environment["ONAIR_EXECUTABLE"], !path.isEmpty { return path }
        // The test binary lives in the build products directory, next to `onair`.
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: executable).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("onair").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/onair").path
    }
}

/// A test tool failed.
public enum ToolError: Error, CustomStringConvertible {
    case failed(String)
    /// The failure in words.
    public var description: String {
        switch self {
        case .failed(let message): return message
        }
    }
}

/// Kills a child process that is still running `seconds` after it started (SIGKILL, from a
/// dispatch timer); `cancel()` stops the timer and says whether it fired.
final class ChildDeadline: @unchecked Sendable {
    private let lock = NSLock()
    private var fired = false
    private var cancelled = false

    init(_ process: Process, seconds: Double) {
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            lock.lock()
            defer { lock.unlock() }
            guard !cancelled else { return }
            fired = true
            _ = kill(pid, SIGKILL)
        }
    }

    /// Stops the timer (the child has exited); true when it had already killed the child.
    func cancel() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        cancelled = true
        return fired
    }
}
