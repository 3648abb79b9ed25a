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
///
/// The page's Low-Latency HLS block the same way, over HTTPS with HTTP/2 (a certificate made with
/// openssl at test time) in front of `onair serve --hls-variant lowlatency`: blocking reloads and the
/// preload hint's part pass through and are answered when the part is published, each part's reload
/// gets its own answer, parts are cached immutable.
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

    /// The ```nginx block of docs/edge-nginx.md's Low-Latency HLS section, for a camera on `camera`
    /// and an HTTPS edge on `edge` with the certificate `certificate` and key `key`.
    static func documentedLowLatencyEdge(camera: Int, edge: Int, cache: String, certificate: String, key: String) throws -> String {
        let page = try String(contentsOf: root.appendingPathComponent("docs/edge-nginx.md"), encoding: .utf8)
        let section = try #require(page.components(separatedBy: "## Low-Latency HLS through the edge").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```nginx\n").dropFirst().first?.components(separatedBy: "```").first)
        let config =
            block
            .replacingOccurrences(of: "/var/cache/nginx/onair-ll", with: cache)
            .replacingOccurrences(of: "listen 443 ssl http2;", with: "listen 127.0.0.1:\(edge) ssl http2;")
            .replacingOccurrences(of: "/etc/nginx/onair.crt", with: certificate)
            .replacingOccurrences(of: "/etc/nginx/onair.key", with: key)
            .replacingOccurrences(of: "CAMERA:8080", with: "127.0.0.1:\(camera)")
        try #require(
            config.contains(cache) && config.contains("listen 127.0.0.1:\(edge) ssl http2;") && config.contains(certificate)
                && !config.contains("CAMERA"))
        return config
    }

    /// An nginx in the foreground with `server(port)` (a documented block listening on `port`) in its
    /// http block, access log "URI?ARGS STATUS CACHE UPSTREAM" in `dir`/upstream.log; started on a
    /// port of `StreamTestPorts.peer` (nginx cannot say which port it bound) and listening there.
    static func startNginx(in dir: URL, _ server: (Int) throws -> String) throws -> (process: StreamTestProcess, port: Int) {
        try StreamTestPorts.peer(log: dir.appendingPathComponent("error.log").path) { port in
            try launchNginx(try server(port), in: dir)
        }
    }

    private static func launchNginx(_ server: String, in dir: URL) throws -> StreamTestProcess {
        let config = """
            daemon off;
            master_process off;
            pid \(dir.path)/nginx.pid;
            error_log \(dir.path)/error.log;
            events { worker_connections 256; }
            http {
                client_body_temp_path \(dir.path)/client_temp;
                proxy_temp_path \(dir.path)/proxy_temp;
                log_format edge '$request_uri $status $upstream_cache_status $upstream_addr';
                access_log \(dir.path)/upstream.log edge;
            \(server)
            }
            """
        try config.write(to: dir.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        return try StreamTestProcess(
            "nginx", ["-p", dir.path, "-c", dir.appendingPathComponent("nginx.conf").path],
            stderrPath: dir.appendingPathComponent("nginx.stderr").path)
    }

    /// GETs of `paths` at once over HTTPS through one curl speaking HTTP/2 (`--parallel`
    /// multiplexes them on one connection): for each, in the order given, the HTTP version, the
    /// status, the seconds taken, X-Cache, Cache-Control and the body.
    static func fetchOverHTTP2(_ paths: [String], port: Int, in dir: URL) throws -> [(
        version: String, status: String, seconds: Double, cache: String, control: String, body: Data
    )] {
        var arguments = ["-s", "-k", "--http2", "--parallel", "--parallel-immediate", "--parallel-max", "\(paths.count)", "-m", "10"]
        arguments += ["-w", "%{http_version}|%{http_code}|%{time_total}|%header{x-cache}|%header{cache-control}|%{url}\n"]
        let bodies = paths.indices.map { _ in dir.appendingPathComponent("body-\(UUID().uuidString)").path }
        for (path, body) in zip(paths, bodies) { arguments += ["-o", body, "https://127.0.0.1:\(port)\(path)"] }
        let lines = try Tools.run("curl", arguments).stdoutText.split(separator: "\n").map {
            $0.split(separator: "|", omittingEmptySubsequences: false)
        }
        return zip(paths, bodies).map { path, body in
            let line = lines.first { $0.count == 6 && $0[5] == "https://127.0.0.1:\(port)\(path)" } ?? []
            let field = { (index: Int) in line.count == 6 ? String(line[index]) : "" }
            return (
                field(0), field(1), Double(field(2)) ?? 0, field(3), field(4), (try? Data(contentsOf: URL(fileURLWithPath: body))) ?? Data()
            )
        }
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

    @Test(.enabled(if: toolExists("nginx") && toolExists("curl") && toolExists("openssl"), "needs nginx, curl and openssl"))
    func lowLatencyHLSPassesThroughTheEdgeOverHTTP2() throws {
        let dir = try Tools.temporaryDirectory("edge-llhls")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = { (name: String) in dir.appendingPathComponent(name).path }
        let made = try Tools.run(
            "openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-keyout", file("edge.key"),
                "-out", file("edge.crt"),
            ])
        try #require(made.status == 0, "\(made.stderr)")
        let server = try ServeTestServer(
            directory: dir, duration: 30, arguments: ["--hls-variant", "lowlatency", "--hls-time", "1", "--hls-part-duration", "0.2"])
        defer { _ = server.finish(timeout: 1) }
        let (nginx, edgePort) = try Self.startNginx(in: dir) { edge in
            try Self.documentedLowLatencyEdge(
                camera: server.port, edge: edge, cache: file("cache"), certificate: file("edge.crt"), key: file("edge.key"))
        }
        defer { nginx.kill() }

        // Where onair's playlist is now (asked directly): the segment being written.
        var current: Int?
        _ = waitUntil(timeout: 15) {
            let playlist = String(decoding: (try? server.get("/live.m3u8").body) ?? Data(), as: UTF8.self)
            guard playlist.contains("segment_1.m4s"),
                let hint = playlist.split(separator: "\n").last(where: { $0.hasPrefix("#EXT-X-PRELOAD-HINT") })
            else { return false }
            // …URI="part_N_P.m4s": N
            current = hint.components(separatedBy: "part_").last?.split(separator: "_").first.flatMap { Int($0) }
            return current != nil
        }
        let segment = try #require(current, "no preload hint: \(server.process.stderr)") + 1
        // The second part of the next segment, a second or more away: its reloads and the part itself
        // are asked through the edge now, all on one HTTP/2 connection, and held until it is published.
        let part = "part_\(segment)_1.m4s"
        let reload = "/live.m3u8?_HLS_msn=\(segment)&_HLS_part=1"
        let held = try Self.fetchOverHTTP2(Array(repeating: reload, count: 4) + ["/" + part], port: edgePort, in: dir)
        #expect(held.allSatisfy { $0.version == "2" && $0.status == "200" }, "\(held.map { ($0.version, $0.status) })")
        for answer in held.prefix(4) {
            #expect(
                String(decoding: answer.body, as: UTF8.self).contains("URI=\"\(part)\""), "\(String(decoding: answer.body, as: UTF8.self))")
            #expect(answer.seconds > 0.1 && answer.control.hasPrefix("public, max-age="), "\(answer.seconds) \(answer.control)")
        }
        let direct = try server.get("/" + part)
        #expect(direct.status == 200 && !direct.body.isEmpty && held[4].body == direct.body)
        #expect(held[4].control.contains("immutable"), "\(held[4].control)")
        // Again: the same reload is the cached answer; the next part's reload is its own, held again;
        // the part is a hit.
        let again = try Self.fetchOverHTTP2([reload, "/live.m3u8?_HLS_msn=\(segment)&_HLS_part=2", "/" + part], port: edgePort, in: dir)
        #expect(again.allSatisfy { $0.version == "2" && $0.status == "200" }, "\(again.map { ($0.version, $0.status) })")
        #expect(again[0].cache == "HIT" && again[0].body == held[0].body, "\(again[0].cache)")
        let next = String(decoding: again[1].body, as: UTF8.self)
        #expect(again[1].cache == "MISS" && next.contains("URI=\"part_\(segment)_2.m4s\""), "\(again[1].cache) \(next)")
        #expect(again[2].cache == "HIT" && again[2].body == direct.body, "\(again[2].cache)")
        // A plain playlist is no-store at the device, so never a stale copy at the edge.
        let plain = try Self.fetchOverHTTP2(["/live.m3u8", "/live.m3u8"], port: edgePort, in: dir)
        #expect(plain.allSatisfy { $0.status == "200" && $0.cache == "MISS" && $0.control == "no-store" }, "\(plain.map(\.cache))")
        nginx.kill()
        // What reached onair: each of the four held reloads (no lock collapses them), the part once
        // (held too), then only the new part's reload and the plain playlists.
        let log = try String(contentsOfFile: file("upstream.log"), encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ") }
        let upstream = log.filter { $0.count == 4 && $0[3] != "-" }.map { String($0[0]) }
        #expect(upstream.filter { $0 == reload }.count == 4 && upstream.filter { $0 == "/" + part }.count == 1, "\(upstream)")
    }

    @Test(.enabled(if: toolExists("nginx") && toolExists("curl"), "needs nginx (nginx-light, scripts/setup.sh) and curl"))
    func twentyViewersAtTheEdgeCostOnairOneRequestPerFile() throws {
        let dir = try Tools.temporaryDirectory("edge-nginx")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeTestServer(directory: dir, duration: 14, arguments: ["--hls-time", "1"])
        defer { _ = server.finish(timeout: 1) }
        let log = dir.appendingPathComponent("upstream.log").path
        let (nginx, edgePort) = try Self.startNginx(in: dir) { edge in
            try Self.documentedEdge(camera: server.port, edge: edge, cache: dir.appendingPathComponent("cache").path)
        }
        defer { nginx.kill() }

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
