#if os(Linux)
import Foundation
import OnAirTestSupport

/// A private nginx with the RTMP module on a loopback port, run in the foreground as root
/// (`daemon off; master_process off;`), its config, pid and logs in a temporary directory.
final class StreamTestNginx {
    static let module = "/usr/lib/nginx/modules/ngx_rtmp_module.so"
    let directory: URL
    let port: Int
    private var process: StreamTestProcess?

    /// Whether nginx and its RTMP module are installed (scripts/setup.sh installs them).
    static var available: Bool { toolExists("nginx") && FileManager.default.fileExists(atPath: module) }

    /// Writes the config and starts nginx on a port of `StreamTestPorts.peer` (nginx cannot say
    /// which port it bound); `idleStreams: false` makes a play of an unpublished stream fail at
    /// once instead of waiting for a publisher.
    init(idleStreams: Bool = true) throws {
        let directory = try Tools.temporaryDirectory("onair-nginx")
        self.directory = directory
        do {
            (process, port) = try StreamTestPorts.peer(log: directory.appendingPathComponent("error.log").path) { port in
                try Self.configuration(directory: directory, port: port, idleStreams: idleStreams)
                    .write(to: directory.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
                return try Self.launch(in: directory)
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    private static func configuration(directory: URL, port: Int, idleStreams: Bool) -> String {
        """
        load_module \(Self.module);
        daemon off;
        master_process off;
        pid \(directory.path)/nginx.pid;
        error_log \(directory.path)/error.log info;
        events { worker_connections 64; }
        rtmp {
            server {
                listen 127.0.0.1:\(port);
                chunk_size 4096;
                application live {
                    live on;
                    wait_key on;
                    idle_streams \(idleStreams ? "on" : "off");
                    record all;
                    record_path \(directory.path);
                    record_unique off;
                }
            }
        }
        """
    }

    private static func launch(in directory: URL) throws -> StreamTestProcess {
        try StreamTestProcess(
            "nginx", ["-p", directory.path, "-c", directory.appendingPathComponent("nginx.conf").path],
            stderrPath: directory.appendingPathComponent("stderr.log").path)
    }

    /// The FLV nginx records of stream `key` (everything the publisher sent).
    func recording(_ key: String = "test") -> String { directory.appendingPathComponent("\(key).flv").path }

    /// The URL of stream `key` in the `live` application.
    func url(_ key: String = "test") -> String { "rtmp://127.0.0.1:\(port)/live/\(key)" }

    /// Starts nginx again on its port (after `stop()`) and waits until it accepts connections.
    func start() throws {
        process = try Self.launch(in: directory)
        guard waitUntil(timeout: 10, { StreamTestPorts.accepts(port) }) else {
            let log = process?.stderr ?? ""
            stop()
            throw StreamTestError("nginx did not start on port \(port): \(log)")
        }
    }

    /// Kills nginx (SIGKILL: like a server that goes away) and waits until the port is closed.
    func stop() {
        process?.kill()
        process = nil
        _ = waitUntil(timeout: 5) { !StreamTestPorts.accepts(port) }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
#endif
