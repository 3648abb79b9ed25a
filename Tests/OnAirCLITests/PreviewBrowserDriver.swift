#if os(Linux)
import Foundation
import OnAirTestSupport

/// Runs Tests/Tools/preview_browser.py — headless Chromium through chromedriver and
/// python3-selenium — against a server it starts (and restarts) itself, and returns its JSON.
enum PreviewBrowserDriver {
    /// The driver script.
    static let script = Tools.packageRoot.appendingPathComponent("Tests/Tools/preview_browser.py").path
    /// The stand-in server that serves the page with ffmpeg's live fragmented MP4.
    static let standIn = Tools.packageRoot.appendingPathComponent("Tests/Tools/preview_standin.py").path
    /// Debian's Python, where python3-selenium is installed.
    static let python = "/usr/bin/python3"
    /// The server's port as a test names it in the server command and the URL: the driver starts
    /// the server on port 0, reads the port it bound from its ready line ("serving http://…") and
    /// starts it again on that port when it restarts it.
    static let port = "{port}"

    /// Why the browser tests cannot run here, or nil when chromium, chromedriver and selenium are present.
    static let missing: String? = {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", python] where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is missing (scripts/setup.sh installs chromium, chromium-driver and python3-selenium)"
        }
        guard let result = try? Tools.run(python, ["-c", "import selenium"]), result.status == 0 else {
            return "python3-selenium is missing (scripts/setup.sh installs it)"
        }
        return nil
    }()

    /// Runs the driver in `mode` ("check" or "bench") on `url` with `server` as the server command,
    /// plus `extra` arguments; returns its JSON object (the driver's log lines are in `stderr`).
    static func run(
        _ mode: String, url: String, server: [String], extra: [String] = [],
        serverLog: String
    ) throws -> (json: [String: Any], stderr: String) {
        let command = String(decoding: try JSONSerialization.data(withJSONObject: server), as: UTF8.self)
        let result = try Tools.run(
            python,
            [
                script, mode, "--url", url, "--server-command", command,
                "--server-log", serverLog,
            ] + extra)
        guard let json = try? JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] else {
            throw ToolError.failed("preview_browser.py printed no JSON (status \(result.status)): \(result.stderr)")
        }
        return (json, result.stderr)
    }
}
#endif
