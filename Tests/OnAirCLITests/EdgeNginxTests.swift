#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// docs/edge-nginx.md's caching edge, as the page writes it: its nginx block (CAMERA:8080, `listen
/// 80` and the cache path replaced by loopback and a scratch directory) in front of `onair
/// serve`. Twenty viewers at once take the playlist and the newest segment from the edge; onair
/// is asked once for each (nginx's upstream log and X-Cache: one MISS, the others HIT behind
/// `proxy_cache_lock`); once the playlist's second has passed, twenty more ask onair once again.
/// The figures for 1,000 viewers are bench/edge_scale.sh's.
@Suite struct EdgeNginxTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The ```nginx block of docs/edge-nginx.md for a camera on `camera` and an edge on `edge`.
    static func documentedEdge(camera: Int, edge: Int, cache: String) throws -> String {
        let page = try String(contentsOf: root.appendingPathComponent("docs/edge-nginx.md"), encoding: .utf8)
        let block = try #require(page.components(separatedBy: "```nginx\n").dropFirst().first?.components(separatedBy: "```").first)
        let config =
            block
            .replacingOccurrences(of: "/var/cache/nginx/onair", with: cache)
            .replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(edge);")
            .replacingOccurrences(of: "CAMERA:8080", with: "127.0.0.1:\(camera)")
        try #require(config.contains(cache) && config.contains("listen 127.0.0.1:\(edge);") && !config.contains("CAMERA"))
        return config
    }

    /// `count` GETs of each path at once through one curl (`--parallel`): "STATUS X-CACHE PATH" each.
    static func fetchAtOnce(_ paths: [String], count: Int, port: Int) throws -> [[Substring]] {
        var arguments = ["-s", "--parallel", "--parallel-immediate", "--parallel-max", "\(paths.count * count)", "-m", "10"]
        arguments += ["-w", "%{http_code} %header{x-cache} %{url}\n"]
        for path in paths {
            for _ in 0..<count { arguments += ["-o", "/dev/null", "http://127.0.0.1:\(port)\(path)"] }
        }
        let result = try Tools.run("curl", arguments)
        return result.stdoutText.split(separator: "\n").map { $0.split(separator: " ") }
    }

    @Test(.enabled(if: toolExists("nginx") && toolExists("curl"), "needs nginx (nginx-light, scripts/setup.sh) and curl"))
    func twentyViewersAtTheEdgeCostOnairOneRequestPerFile() throws {
        let dir = try Tools.temporaryDirectory("edge-nginx")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeTestServer(directory: dir, duration: 14, arguments: ["--hls-time", "1"])
        defer { _ = server.finish(timeout: 1) }
        let edgePort = try StreamTestPorts.free()
        let log = dir.appendingPathComponent("upstream.log").path
        let config = """
            daemon off;
            master_process off;
            pid \(dir.path)/nginx.pid;
            error_log \(dir.path)/error.log;
            events { worker_connections 256; }
            http {
                client_body_temp_path \(dir.path)/client_temp;
                proxy_temp_path \(dir.path)/proxy_temp;
                log_format edge '$uri $status $upstream_cache_status $upstream_addr';
                access_log \(log) edge;
            \(try Self.documentedEdge(camera: server.port, edge: edgePort, cache: dir.appendingPathComponent("cache").path))
            }
            """
        try config.write(to: dir.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let nginx = try StreamTestProcess(
            "nginx", ["-p", dir.path, "-c", dir.appendingPathComponent("nginx.conf").path],
            stderrPath: dir.appendingPathComponent("nginx.stderr").path)
        defer { nginx.kill() }
        try #require(waitUntil(timeout: 10) { StreamTestPorts.accepts(edgePort) }, "nginx did not start: \(nginx.stderr)")

        // The newest segment onair lists (asked directly, so the edge has not seen it).
        var newest: String?
        _ = waitUntil(timeout: 8) {
            let playlist = String(decoding: (try? server.get("/live.m3u8").body) ?? Data(), as: UTF8.self)
            newest = playlist.split(separator: "\n").last { $0.hasPrefix("segment_") }.map(String.init)
            return newest != nil
        }
        let segment = try #require(newest, "onair listed no segment")
        let first = try Self.fetchAtOnce(["/live.m3u8", "/" + segment], count: 20, port: edgePort)
        #expect(first.count == 40 && first.allSatisfy { $0.first == "200" }, "\(first)")
        for path in ["/live.m3u8", "/" + segment] {
            let states = first.filter { $0.last?.hasSuffix(path) == true }.map { $0.dropFirst().first ?? "" }
            #expect(states.filter { $0 == "MISS" }.count == 1 && states.filter { $0 == "HIT" }.count == 19, "\(path): \(states)")
        }
        // The playlist's second has passed: one viewer's request refreshes it, the others take the stale copy.
        letTimePass(2.2, "the cached playlist goes stale")
        let second = try Self.fetchAtOnce(["/live.m3u8"], count: 20, port: edgePort)
        #expect(second.count == 20 && second.allSatisfy { $0.first == "200" }, "\(second)")
        nginx.kill()

        // What reached onair: the edge's requests with an upstream address.
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ") }
        let upstream = lines.filter { $0.count == 4 && $0[3] != "-" }
        #expect(lines.count == 60, "\(lines.count) requests logged")
        #expect(upstream.filter { $0[0] == "/" + segment }.count == 1, "\(upstream)")
        #expect(upstream.filter { $0[0] == "/live.m3u8" }.count == 2, "\(upstream)")
        #expect(upstream.allSatisfy { $0[1] == "200" }, "\(upstream)")
    }
}
#endif
