#if os(Linux)
import Foundation
import OnAirTestSupport

/// Tests/Tools/whip_server.py (aiortc, from PyPI) running for one test: a WHIP endpoint on
/// 127.0.0.1 whose JSON lines (sessions, refusals, DELETEs, per-session summaries) are read back.
final class WHIPTestServer {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/whip_server.py").path
    /// Whether aiortc and GStreamer's webrtcbin with libnice are installed.
    static var available: Bool {
        Tools.hasAiortc
            && (try? Tools.run("gst-inspect-1.0", ["webrtcbin"]).status) == 0
            && (try? Tools.run("gst-inspect-1.0", ["nicesrc"]).status) == 0
    }

    /// The Python interpreter with aiortc.
    static var python: String { Tools.aiortcPython }

    let process: StreamTestProcess
    let port: Int
    private let stdoutPath: String

    /// Starts the server (on `port`, or one the kernel picks) writing sessions' media under `directory/label`.
    init(directory: URL, label: String, port: Int = 0, token: String? = nil, pliAfter: Double? = nil, seconds: Int = 90) throws {
        let out = directory.appendingPathComponent(label)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        stdoutPath = directory.appendingPathComponent("\(label).out").path
        var arguments = [Self.script, "--port", "\(port)", "--seconds", "\(seconds)", "--out", out.path]
        if let token { arguments += ["--token", token] }
        if let pliAfter { arguments += ["--pli-after", "\(pliAfter)"] }
        let path = stdoutPath
        let started = try StreamTestProcess(
            Self.python, arguments, stderrPath: directory.appendingPathComponent("\(label).err").path, stdoutPath: path)
        process = started
        var found: Int?
        _ = waitUntil(timeout: 30) {
            found = Self.events(path).first { $0["event"] as? String == "listening" }?["port"] as? Int
            return found != nil || !started.process.isRunning
        }
        guard let found else { throw StreamTestError("whip_server.py did not start: \(started.stderr)") }
        self.port = found
    }

    /// The endpoint as `onair stream` names it.
    var url: String { "whip+http://127.0.0.1:\(port)/whip" }

    /// The JSON lines printed so far.
    var events: [[String: Any]] { Self.events(stdoutPath) }

    /// The lines of one kind ("session", "refused", "deleted", "summary").
    func events(_ kind: String) -> [[String: Any]] { events.filter { $0["event"] as? String == kind } }

    /// Stops it (SIGTERM: it prints its summaries and writes the media) and waits up to `timeout` seconds.
    @discardableResult
    func stop(timeout: Double = 60) -> [[String: Any]] {
        if process.process.isRunning { process.process.terminate() }
        process.wait(timeout: timeout)
        return events("summary")
    }

    private static func events(_ path: String) -> [[String: Any]] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }
}

extension String {
    /// nil for the empty string.
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
#endif
