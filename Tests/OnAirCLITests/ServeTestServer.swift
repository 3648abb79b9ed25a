#if os(Linux)
import Foundation
import OnAirTestSupport

/// A running `onair serve` for tests: started on port 0, its bound port read back from its
/// "serving http://HOST:PORT/…" line (a port chosen beforehand could be taken by another lane's
/// process before the server binds it), waited for, and stopped.
final class ServeTestServer {
    let port: Int
    let process: StreamTestProcess
    let directory: URL

    /// Starts `onair serve` with a small synthetic picture and `arguments`; waits until it answers.
    /// `bareListen` gives `--listen 0` only (no address), to see the default address;
    /// `environment` is added to the server's.
    init(
        directory: URL, duration: Int, arguments: [String] = [], bareListen: Bool = false, environment: [String: String] = [:],
        log: String = "serve.log"
    ) throws {
        self.directory = directory
        let base = [
            "serve", "--listen", bareListen ? "0" : "127.0.0.1:0", "--duration", "\(duration)", "--size", "320x240",
            "--fps", "15", "--bitrate", "600k", "--preset", "ultrafast",
        ]
        let process = try StreamTestProcess(
            Tools.onairExecutable, base + arguments,
            stderrPath: directory.appendingPathComponent(log).path, environment: environment)
        self.process = process
        var bound: Int?
        guard
            waitUntil(
                timeout: 20,
                {
                    bound = Self.boundPort(process.stderr)
                    return bound != nil || !process.process.isRunning
                }),
            let port = bound, waitUntil(timeout: 10, { StreamTestPorts.accepts(port) })
        else {
            process.kill()
            throw StreamTestError("onair serve did not listen: \(process.stderr)")
        }
        self.port = port
    }

    /// The port of the first "serving http(s)://HOST:PORT/" line of `log`.
    static func boundPort(_ log: String) -> Int? {
        for line in log.split(separator: "\n") where line.hasPrefix("serving http") {
            guard let scheme = line.range(of: "://") else { continue }
            let authority = line[scheme.upperBound...].prefix { $0 != "/" && $0 != " " && $0 != "," }
            guard let colon = authority.lastIndex(of: ":") else { continue }
            return Int(authority[authority.index(after: colon)...])
        }
        return nil
    }

    /// The port a face of the server reports in its status lines, where `marker` ends just
    /// before HOST:PORT — "RTSP: rtsp://", "RTSPS: rtsps://", "SRT callers: srt://" (each face
    /// started with port 0 says there which port it bound); waited for up to `timeout` seconds.
    func announcedPort(_ marker: String, timeout: Double = 10) throws -> Int {
        try process.announcedPort(marker, timeout: timeout)
    }

    /// `http://127.0.0.1:PORT` + `path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The status code and body of a GET (curl), e.g. for `/stats.json`.
    func get(_ path: String) throws -> (status: Int, body: Data) {
        let result = try Tools.run("curl", ["-s", "--path-as-is", "-m", "10", "-o", "-", "-w", "\n%{http_code}", url(path)])
        var text = result.stdout
        guard let newline = text.lastIndex(of: UInt8(ascii: "\n")) else { return (0, Data()) }
        let code = Int(String(decoding: text[(newline + 1)...], as: UTF8.self)) ?? 0
        text = text[..<newline]
        return (code, Data(text))
    }

    /// `/stats.json` parsed.
    func statistics(token: String? = nil) throws -> [String: Any] {
        let reply = try get("/stats.json" + (token.map { "?token=\($0)" } ?? ""))
        return (try JSONSerialization.jsonObject(with: reply.body) as? [String: Any]) ?? [:]
    }

    /// Stops the server as Ctrl-C does (SIGINT: every file finished, the closing statistics line
    /// and the last `--stats-json` line written) once a test has what it came for, rather than
    /// waiting out its `--duration`; whether it then exited with status 0 within `timeout` seconds
    /// (it is killed if not).
    func stop(timeout: Double = 30) -> Bool {
        guard process.process.isRunning else { return process.process.terminationStatus == 0 }
        process.process.interrupt()
        guard process.wait(timeout: timeout) else {
            process.kill()
            return false
        }
        return process.process.terminationStatus == 0
    }

    /// Waits for the server to end by itself (its duration), then kills it if it did not.
    func finish(timeout: Double) -> Bool {
        let ended = process.wait(timeout: timeout)
        if !ended { process.kill() }
        return ended
    }
}
#endif
