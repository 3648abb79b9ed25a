#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair serve --config FILE`: a file with every kind of key (scalars, lists, booleans, the stored
/// keys) serves as the same flags do, checked through `--print-config` and the running servers'
/// `/stats.json`; a bad key or value exits 2 naming the file, the line and the key.
@Suite(.serialized) struct ServeConfigFileTests {
    /// The serve flags of ServeTestServer's base, so `--print-config` runs see the same ones.
    static func base(port: Int) -> [String] {
        [
            "serve", "--listen", "127.0.0.1:\(port)", "--duration", "20", "--size", "320x240", "--fps", "15", "--bitrate", "600k",
            "--preset", "ultrafast",
        ]
    }

    /// `--print-config` without the `# from …` notes (where a value came from differs on purpose).
    static func printedConfig(_ arguments: [String]) throws -> String {
        let result = try Tools.run(Tools.onairExecutable, arguments + ["--print-config"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdoutText.split(separator: "\n").map { line in
            String(line.range(of: "  # from ").map { line[..<$0.lowerBound] } ?? line)
        }.joined(separator: "\n")
    }

    @Test func aFileWithEveryKindOfKeyServesAsTheSameFlagsDo() throws {
        let dir = try Tools.temporaryDirectory("serve-config")
        defer { try? FileManager.default.removeItem(at: dir) }
        let stored = """
            metrics-addresses: [127.0.0.1/32, "::1"]
            health-addresses: 127.0.0.0/8
            tls-self-signed: false
            users:
              - name: alice
                password: "$argon2id$v=19$m=65536,t=3,p=1$c2FsdHNhbHQ$aGFzaGhhc2g"
                permissions: [read, metrics]

            """
        let file = dir.appendingPathComponent("onair.yml")
        for sub in ["one", "two"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try
            (stored + """
                # every kind of key: numbers, text, a list of one, a list of two, booleans
                max-viewers: 1
                token: [config-token-1]
                viewer-timeout: 4
                hls-time: 1
                keyint-duration: 1
                output:
                  - \(dir.path)/one/a.ts
                  - "\(dir.path)/one/b c.mp4"
                data-rate-limit: 150000:1
                bframes: false
                realtime: yes
                audio-bitrate: 96k

                """).write(to: file, atomically: true, encoding: .utf8)
        let storedFile = dir.appendingPathComponent("stored.yml")
        try stored.write(to: storedFile, atomically: true, encoding: .utf8)
        let flags = [
            "--max-viewers", "1", "--token", "config-token-1", "--viewer-timeout", "4", "--hls-time", "1", "--keyint-duration", "1",
            "-o", "\(dir.path)/two/a.ts", "--output", "\(dir.path)/two/b c.mp4", "--data-rate-limit", "150000:1", "--no-bframes",
            "--realtime", "--audio-bitrate", "96k",
        ]
        // The same effective configuration, the recordings' names aside.
        let fromFile = try Self.printedConfig(Self.base(port: 8080) + ["--config", file.path])
        let fromFlags = try Self.printedConfig(Self.base(port: 8080) + ["--config", storedFile.path] + flags)
        #expect(fromFile.replacingOccurrences(of: "/one/", with: "/X/") == fromFlags.replacingOccurrences(of: "/two/", with: "/X/"))
        #expect(fromFile.contains("max-viewers: 1"))
        #expect(!fromFile.contains("config-token-1"))
        #expect(!fromFile.contains("aGFzaGhhc2g"))

        // Both servers: the token asked for, one viewer at most (a second is refused), both recordings written.
        var documents: [[String: Any]] = []
        for (label, arguments) in [("file", ["--config", file.path]), ("flags", ["--config", storedFile.path] + flags)] {
            let server = try ServeTestServer(directory: dir, duration: 20, arguments: arguments)
            #expect(try server.get("/stats.json").status == 401, "\(label)")
            let viewer = try StreamTestProcess(
                "curl", ["-s", "-m", "15", "-o", "/dev/null", server.url("/live.ts?token=config-token-1")],
                stderrPath: dir.appendingPathComponent("viewer-\(label).log").path)
            func totals() -> [String: Any] { ((try? server.statistics(token: "config-token-1"))?["totals"] as? [String: Any]) ?? [:] }
            #expect(waitUntil(timeout: 15) { totals()["viewers"] as? Int == 1 }, "\(label): the viewer never arrived")
            #expect(try server.get("/live.ts?token=config-token-1").status == 503, "\(label): a second viewer was let in")
            #expect(waitUntil(timeout: 15) { (try? server.statistics(token: "config-token-1"))?["encoder"] is [String: Any] })
            let document = try server.statistics(token: "config-token-1")
            documents.append(document)
            viewer.kill()
            server.process.kill()
            _ = server.finish(timeout: 10)
        }
        let keys = documents.map { Set($0.keys) }
        #expect(keys[0] == keys[1])
        let encoderKeys = documents.map { Set((($0["encoder"] as? [String: Any]) ?? [:]).keys) }
        #expect(encoderKeys[0] == encoderKeys[1])
        #expect(!encoderKeys[0].isEmpty)
        let totals = documents.map { ($0["totals"] as? [String: Any]) ?? [:] }
        for total in totals {
            #expect(total["refused_full"] as? Int == 1)
            #expect(total["served"] as? Int == 1)
        }
        for name in ["one/a.ts", "one/b c.mp4", "two/a.ts", "two/b c.mp4"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)[.size] as? Int) ?? 0
            #expect(size > 0, "\(name) was not recorded")
        }
    }

    @Test func aBadKeyOrValueExits2NamingFileLineAndKey() throws {
        let dir = try Tools.temporaryDirectory("serve-config-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases: [(String, String)] = [
            ("max-viewers: 4\n\nmax-viewerz: 3\n", ":3: key 'max-viewerz': unknown key"),
            ("listen: 127.0.0.1:0\nmax-viewers: lots\n", ":2: key 'max-viewers': takes a whole number 1–10000 (got 'lots')"),
            ("output:\n  - a.ts\n  - [b.ts]\n", ":3: key 'output': takes a value, not a list"),
            ("webrtc: sometimes\n", ":1: key 'webrtc': takes true or false (got 'sometimes')"),
            ("token: [A]\nmax-viewers: [\n", ":3:"),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let file = dir.appendingPathComponent("bad\(index).yml")
            try text.write(to: file, atomically: true, encoding: .utf8)
            let result = try Tools.run(Tools.onairExecutable, ["serve", "--config", file.path, "--duration", "1"])
            #expect(result.status == 2, "\(text)")
            #expect(result.stderr.contains(file.path + expected), "\(result.stderr)")
        }
        let result = try Tools.run("/usr/bin/env", ["ONAIR_MAX_VIEWERS=none", Tools.onairExecutable, "serve", "--duration", "1"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("environment ONAIR_MAX_VIEWERS: key 'max-viewers'"), "\(result.stderr)")
        let missing = try Tools.run(Tools.onairExecutable, ["serve", "--config", dir.appendingPathComponent("none.yml").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("none.yml: cannot be read"), "\(missing.stderr)")
    }
}
#endif
