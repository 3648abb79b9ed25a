#if os(Linux)
import Foundation
import Testing

@testable import OnAirServeConfig

/// The serve configuration file without a server: libyaml's tree with lines, the bounds, the key
/// table's checks, file < environment < flags, and `--print-config`'s redaction.
@Suite struct ServeConfigTests {
    static func parse(_ text: String) throws -> ServeConfigNode {
        try ServeConfigReader.parse(Array(text.utf8), name: "t.yml")
    }

    static func resolve(_ text: String, environment: [String: String] = [:], _ commandLine: [String] = []) throws
        -> ServeConfigResolution
    {
        try ServeConfigResolution(root: parse(text), file: "t.yml", environment: environment, commandLine: commandLine)
    }

    /// The error `body` throws (fails the test when it throws none).
    static func refusal(_ body: () throws -> Void) -> ServeConfigError? {
        do {
            try body()
        } catch let error as ServeConfigError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
        Issue.record("nothing was refused")
        return nil
    }

    @Test func theTreeKeepsKindsOrderAndLines() throws {
        let root = try Self.parse("# a comment\nlisten: 0.0.0.0:8080\ntoken:\n  - A\n  - 'B'\nusers:\n  - name: x\n    port: ~\n")
        guard case .map(let entries) = root.content else {
            Issue.record("not a mapping")
            return
        }
        #expect(entries.map(\.key) == ["listen", "token", "users"])
        #expect(entries.map(\.line) == [2, 3, 6])
        #expect(root["listen"]?.scalar == "0.0.0.0:8080")
        guard case .list(let tokens) = root["token"]?.content else {
            Issue.record("token is not a list")
            return
        }
        #expect(tokens.map(\.scalar) == ["A", "B"])
        #expect(tokens.map(\.line) == [4, 5])
        guard case .list(let users) = root["users"]?.content, let user = users.first else {
            Issue.record("users is not a list")
            return
        }
        #expect(user["name"]?.scalar == "x")
        #expect(user["port"]?.isNull == true)
        #expect(try Self.parse("")["anything"] == nil)
        #expect(try Self.parse("~\n") == ServeConfigNode(.map([]), line: 1))
    }

    @Test func theReaderRefusesWhatItCannotBoundOrDoesNotExpect() throws {
        let deep = String(repeating: "[", count: 17) + String(repeating: "]", count: 17)
        #expect(Self.refusal { _ = try Self.parse("a: " + deep) }?.reason.contains("deeper") == true)
        let fine = String(repeating: "[", count: 15) + String(repeating: "]", count: 15)
        #expect(try Self.parse("a: " + fine)["a"] != nil)
        let big = "a: " + String(repeating: "x", count: ServeConfigReader.maximumBytes)
        #expect(Self.refusal { _ = try Self.parse(big) }?.reason.contains("larger") == true)
        let alias = Self.refusal { _ = try Self.parse("a: &x [1, 2]\nb: *x\n") }
        #expect(alias?.line == 2)
        #expect(alias?.reason.contains("alias") == true)
        let twice = Self.refusal { _ = try Self.parse("max-viewers: 1\nmax-viewers: 2\n") }
        #expect(twice?.description == "t.yml:2: key 'max-viewers': given twice")
        #expect(Self.refusal { _ = try Self.parse("a: 1\n---\nb: 2\n") }?.line == 2)
        #expect(Self.refusal { _ = try Self.parse("- a\n- b\n") }?.reason.contains("mapping") == true)
        #expect(Self.refusal { _ = try Self.parse("[a]: 1\n") }?.reason.contains("key") == true)
        let broken = Self.refusal { _ = try Self.parse("a: 1\nb: [\n") }
        #expect(broken?.source == "t.yml")
        #expect(broken?.line != nil)
    }

    @Test func unknownKeysAndBadValuesNameFileLineAndKey() throws {
        let unknown = Self.refusal { _ = try Self.resolve("listen: 8080\n\nmax-viewerz: 3\n") }
        #expect(unknown?.description == "t.yml:3: key 'max-viewerz': unknown key")
        let bad = Self.refusal { _ = try Self.resolve("listen: 8080\nmax-viewers: lots\n") }
        #expect(bad?.description == "t.yml:2: key 'max-viewers': takes a whole number 1–10000 (got 'lots')")
        let item = Self.refusal { _ = try Self.resolve("data-rate-limit:\n  - 1000:1\n  - 1000\n") }
        #expect(item?.line == 3)
        #expect(item?.key == "data-rate-limit")
        #expect(Self.refusal { _ = try Self.resolve("webrtc: maybe\n") }?.key == "webrtc")
        #expect(Self.refusal { _ = try Self.resolve("max-viewers: [1]\n") }?.reason.contains("a list") == true)
        #expect(Self.refusal { _ = try Self.resolve("srt-port:\n") }?.key == "srt-port")
        #expect(Self.refusal { _ = try Self.resolve("metrics-addresses: [10.0.0.0/33]\n") }?.key == "metrics-addresses")
        let environment = Self.refusal { _ = try Self.resolve("", environment: ["ONAIR_HLS_TIME": "-1"]) }
        #expect(environment?.description.hasPrefix("environment ONAIR_HLS_TIME: key 'hls-time'") == true)
        #expect(Self.refusal { _ = try Self.resolve("", environment: ["ONAIR_USERS": "x"]) }?.key == "users")
    }

    @Test func theFileGivesArgumentsTheEnvironmentAndFlagsOverride() throws {
        let file = """
            listen: 127.0.0.1:9000
            max-viewers: 8
            token: only-one
            output: [a.ts, b.mp4]
            data-rate-limit: 375000:1
            webrtc: yes
            bframes: false
            realtime: true
            no-audio: false
            hls-time: 1
            users: [{name: alice, password: x}]
            tls-cert: /etc/onair/cert.pem

            """
        let plain = try Self.resolve(file)
        #expect(
            plain.arguments == [
                "--listen", "127.0.0.1:9000", "--max-viewers", "8", "--token", "only-one", "--webrtc", "--hls-time", "1",
                "--output", "a.ts", "--output", "b.mp4", "--data-rate-limit", "375000:1", "--no-bframes", "--realtime",
                "--tls-cert", "/etc/onair/cert.pem",
            ])
        #expect(plain.settings["max-viewers"]?.origin == .file("t.yml", line: 2))
        #expect(plain.node("users") != nil)
        #expect(plain.settings["tls-cert"]?.values == ["/etc/onair/cert.pem"])
        #expect(plain.addressRanges("metrics-addresses") == ServeAddressRange.loopback)

        let overridden = try Self.resolve(
            file, environment: ["ONAIR_MAX_VIEWERS": "9", "ONAIR_HLS_TIME": "3", "ONAIR_EXECUTABLE": "/x", "ONAIR_LISTEN": ""],
            ["--hls-time=4", "-o", "c.ts", "--bframes"])
        #expect(overridden.settings["max-viewers"]?.values == ["9"])
        #expect(overridden.settings["max-viewers"]?.origin == .environment("ONAIR_MAX_VIEWERS"))
        #expect(overridden.settings["hls-time"]?.values == ["4"])
        #expect(overridden.settings["hls-time"]?.origin == .commandLine)
        #expect(overridden.settings["output"]?.values == ["c.ts"])
        #expect(overridden.settings["bframes"]?.values == ["true"])
        #expect(overridden.settings["listen"]?.origin == .file("t.yml", line: 1))
        // Flags are not repeated: what the command line sets is left to it.
        #expect(!overridden.arguments.contains("--hls-time"))
        #expect(!overridden.arguments.contains("--output"))
        #expect(!overridden.arguments.contains("--no-bframes"))
        #expect(overridden.arguments.contains("9"))
        // Tokens are a list (rotated by a reload); the environment's ONAIR_TOKEN is one, and replaces the file's.
        #expect(try Self.resolve("token: [A, B]\n").arguments == ["--token", "A", "--token", "B"])
        #expect(try Self.resolve("token: [A, B]\n", environment: ["ONAIR_TOKEN": "C"]).arguments == ["--token", "C"])
    }

    @Test func printConfigRedactsSecretsAndReadsBackTheSame() throws {
        let file = """
            token: [very-secret-token, other-secret-token]
            max-viewers: 4
            webrtc: true
            output: ["with space.ts", "quote\\"d.ts"]
            metrics-addresses: [192.168.0.0/16, "::1"]
            users:
              - name: alice
                password: "$argon2id$v=19$secret-hash"
                permissions: [read, metrics]

            """
        let resolution = try Self.resolve(file)
        let printed = resolution.printed()
        #expect(!printed.contains("very-secret-token") && !printed.contains("other-secret-token"))
        #expect(!printed.contains("secret-hash"))
        #expect(printed.contains("token: [\"<redacted>\", \"<redacted>\"]"), "\(printed)")
        #expect(printed.contains("password: <redacted>"))
        #expect(printed.contains("webrtc: true  # from t.yml:3"))
        // The printed file is a configuration that resolves to the same values (secrets aside).
        let again = try Self.resolve(printed)
        for key in ServeConfigKey.all where !key.secret && key.name != "users" {
            #expect(again.settings[key.name]?.values == resolution.settings[key.name]?.values, "\(key.name)")
        }
        #expect(again.node("users")?["permissions"] == nil)
        #expect(again.printed().components(separatedBy: "\n").count == printed.components(separatedBy: "\n").count)
    }

    /// Escapes in a double-quoted value (a C1 control, NEL, LS, a byte-order mark, a control)
    /// print as escapes again: libyaml refuses them written as they are, or reads NEL and LS as
    /// line breaks (FuzzServeConfig found the first).
    @Test func printConfigEscapesWhatYAMLDoesNotTakeAsItIs() throws {
        let resolution = try Self.resolve(#"output: ["a\x82b\Nc\Ld\uFEFFe\x01f\U0001F600.ts"]"# + "\n")
        #expect(resolution.settings["output"]?.values == ["a\u{82}b\u{85}c\u{2028}d\u{FEFF}e\u{01}f\u{1F600}.ts"])
        let printed = resolution.printed()
        #expect(printed.contains(#""a\x82b\x85c\u2028d\uFEFFe\x01f😀.ts""#), "\(printed)")
        #expect(try Self.resolve(printed).settings["output"]?.values == resolution.settings["output"]?.values)
    }

    @Test func addressRangesMatchTheirAddressesOnly() throws {
        // One parser for the file's ranges and the users' (ServeAccessTests checks the rest).
        #expect(ServeAddressRange.any(ServeAddressRange.loopback, contains: "127.0.0.1"))
        #expect(ServeAddressRange.any(ServeAddressRange.loopback, contains: "::1"))
        #expect(!ServeAddressRange.any(ServeAddressRange.loopback, contains: "10.0.0.1"))
        #expect(!ServeAddressRange.any(ServeAddressRange.loopback, contains: "::2"))
        #expect(try ServeAddressRange("fd00::/8").contains("fdab::1"))
        #expect(ServeAddressRange.host(ofPeer: "127.0.0.1:5000") == "127.0.0.1")
        #expect(ServeAddressRange.host(ofPeer: "[::1]:5000") == "::1")
        #expect(ServeAddressRange.host(ofPeer: "::1") == "::1")
        // A range with host bits set is a typo: refused at start, named with the key.
        #expect(
            ServeConfigKey.all.first { $0.name == "metrics-addresses" }?.problem(with: "10.1.2.3/8")?.contains("did you mean 10.0.0.0/8")
                == true)
    }
}

extension ServeConfigTests {
    @Test func aReloadAppliesMaxViewersAndTimeoutAndNamesTheRest() throws {
        let old = try Self.resolve("max-viewers: 4\ntoken: secret-one\nsize: 640x360\n")
        let new = try Self.resolve("max-viewers: 2\nviewer-timeout: 3\ntoken: secret-two\nsize: 640x360\nbitrate: 1M\n")
        let plan = ServeConfigReload(from: old, to: new)
        #expect(plan.applied == ["max-viewers", "token", "viewer-timeout", "bitrate"])
        #expect(plan.needRestart == [])
        #expect(plan.summary == "applied max-viewers, token, viewer-timeout, bitrate")
        #expect(!plan.summary.contains("secret"))
        #expect(ServeConfigReload(from: old, to: old).summary == "nothing changed")
        let users = ServeConfigReload(
            from: try Self.resolve("users: [{name: a, password: x}]\n"), to: try Self.resolve("users: [{name: a, password: y}]\n"))
        #expect(users.applied == ["users"] && users.needRestart == [])
    }
}

extension ServeConfigTests {
    @Test func aReloadRestartsTheEncodeForSizeRateAndCodecSettingsAndSaysWhatChanged() throws {
        let old = try Self.resolve("size: 640x360\nfps: 30\nbitrate: 1M\n")
        let new = try Self.resolve("size: 1280x720\nfps: 30\nbitrate: 2M\nprofile: main\nkeyint: 30\nrtsp-port: 8554\n")
        let plan = ServeConfigReload(from: old, to: new)
        #expect(plan.applied == ["bitrate"])
        #expect(plan.restartEncode == ["size 640x360 → 1280x720", "keyint 60 → 30", "profile high → main"])
        #expect(plan.needRestart == ["rtsp-port"])
        #expect(
            plan.summary
                == "applied bitrate; restarted the encode for: size 640x360 → 1280x720, keyint 60 → 30, profile high → main; needs a restart (not applied): rtsp-port"
        )
        #expect(plan.restartCapture, "a new size reopens the capture at that size")
        // A new video source or frame rate reopens the capture too; a new preset only the encoder;
        // the audio source needs a restart of the server.
        let sources = ServeConfigReload(
            from: old,
            to: try Self.resolve("size: 640x360\nfps: 25\nbitrate: 1M\nvideo: v4l2:/dev/video0\naudio: none\npreset: ultrafast\n"))
        #expect(sources.restartEncode == ["video synthetic → v4l2:/dev/video0", "fps 30 → 25", "preset veryfast → ultrafast"])
        #expect(sources.restartCapture && sources.needRestart == ["audio"])
        let preset = ServeConfigReload(from: old, to: try Self.resolve("size: 640x360\nfps: 30\nbitrate: 1M\npreset: fast\n"))
        #expect(preset.restartEncode == ["preset veryfast → fast"] && !preset.restartCapture)
    }
}
#endif
