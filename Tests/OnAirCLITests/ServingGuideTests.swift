#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// docs/serving.md's IP-camera blocks as a reader would use them: the months-long recording
/// command and its config file give the same settings (`--print-config`, which parses every flag
/// first), and Home Assistant's generic camera block names URLs that a serve started with its
/// comment's flags answers: a JPEG still image and H.264 over RTSP.
@Suite struct ServingGuideTests {
    static let guide = Tools.packageRoot.appendingPathComponent("docs/serving.md")

    /// The text of the first ```LANGUAGE block of the guide containing `marker`.
    static func block(_ language: String, containing marker: String) throws -> String {
        let text = try String(contentsOf: guide, encoding: .utf8)
        for piece in text.components(separatedBy: "```" + language + "\n").dropFirst() {
            guard let end = piece.range(of: "\n```") else { continue }
            let body = String(piece[..<end.lowerBound])
            if body.contains(marker) { return body }
        }
        throw ToolError.failed("no ```\(language) block with '\(marker)' in docs/serving.md")
    }

    /// The `key: value` lines `--print-config` prints as set (not the `# key: … (not set)` ones).
    static func setKeys(_ printed: String) -> [String: String] {
        var keys: [String: String] = [:]
        for line in printed.split(separator: "\n") where !line.hasPrefix("#") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            keys[String(line[..<colon])] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        return keys
    }

    @Test func theMonthsLongRecordingCommandAndItsConfigFileGiveTheSameSettings() throws {
        let dir = try Tools.temporaryDirectory("serving-guide")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The command as shown, run by sh with `onair` the built binary asked to print its configuration.
        let command = try Self.block("sh", containing: "--record-delete-after")
        let shell = try Tools.run("sh", ["-c", "onair() { '\(Tools.onairExecutable)' \"$@\" --print-config; }\n" + command])
        #expect(shell.status == 0, "\(shell.stderr)")
        let file = dir.appendingPathComponent("onair.yml")
        try Self.block("yaml", containing: "record-path:").write(to: file, atomically: true, encoding: .utf8)
        let fromFile = try ServeConfigFileTests.printedConfig(["serve", "--config", file.path])
        let fromCommand = Self.setKeys(
            shell.stdoutText.split(separator: "\n").map { line in
                String(line.range(of: "  # from ").map { line[..<$0.lowerBound] } ?? line)
            }.joined(separator: "\n"))
        let fromConfig = Self.setKeys(fromFile)
        for key in [
            "video", "audio", "listen", "record-path", "record-segment-duration", "record-delete-after", "record-max-size",
            "record-min-free", "on-segment-complete",
        ] {
            #expect(
                fromCommand[key] != nil && fromCommand[key] == fromConfig[key],
                "\(key): \(fromCommand[key] ?? "-") / \(fromConfig[key] ?? "-")")
        }
        #expect(fromCommand["record-max-size"] == "400G" && fromCommand["record-delete-after"] == "30d", "\(fromCommand)")
        // A bad quantity in the file is named with its line and key, as any other key's.
        try (String(contentsOf: file, encoding: .utf8) + "\nrecord-part-duration: soon\n").write(
            to: file, atomically: true, encoding: .utf8)
        let refused = try Tools.run(Tools.onairExecutable, ["serve", "--config", file.path, "--print-config"])
        #expect(refused.status == 2 && refused.stderr.contains(":11: key 'record-part-duration': takes a duration"), "\(refused.stderr)")
    }

    @Test func homeAssistantsGenericCameraReadsTheStillImageAndTheStream() throws {
        let block = try Self.block("yaml", containing: "platform: generic")
        func value(_ key: String) -> String? {
            block.split(separator: "\n").lazy.compactMap { line -> String? in
                let text = line.trimmingCharacters(in: .whitespaces)
                guard text.hasPrefix(key + ":") else { return nil }
                return text.dropFirst(key.count + 1).split(separator: "#").first.map { $0.trimmingCharacters(in: .whitespaces) }
            }.first
        }
        let still = try #require(value("still_image_url").flatMap(URLComponents.init(string:)))
        let stream = try #require(value("stream_source").flatMap(URLComponents.init(string:)))
        // The flags of the comment beside the stream source: accepted, and the ports the URLs use.
        let comment = try #require(block.components(separatedBy: "# onair serve ").last?.split(separator: "\n").first)
        let flags = comment.split(separator: " ").map(String.init)
        #expect(try Tools.run(Tools.onairExecutable, ["serve"] + flags + ["--print-config"]).status == 0)
        #expect(flags.firstIndex(of: "--rtsp-port").map { flags[$0 + 1] } == stream.port.map(String.init))
        #expect(flags.firstIndex(of: "--listen").map { flags[$0 + 1].hasSuffix(":\(still.port ?? 0)") } == true)
        #expect(still.scheme == "http" && stream.scheme == "rtsp")

        // Served with those flags (on free loopback ports), both paths answer.
        let dir = try Tools.temporaryDirectory("home-assistant")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeTestServer(directory: dir, duration: 20, arguments: ["--rtsp-port", "0"])
        defer { _ = server.finish(timeout: 0) }
        let rtsp = try server.announcedPort("RTSP: rtsp://")
        var image = (status: 0, body: Data())
        #expect(
            waitUntil(timeout: 10) {
                image = (try? server.get(still.path)) ?? (0, Data()); return image.status == 200
            })
        #expect(image.body.starts(with: [0xFF, 0xD8, 0xFF]), "\(Array(image.body.prefix(4)))")
        let info = try Tools.ffprobeJSON(["-rtsp_transport", "tcp", "-show_streams", "rtsp://127.0.0.1:\(rtsp)\(stream.path)"])
        let codecs = (info["streams"] as? [[String: Any]] ?? []).compactMap { $0["codec_name"] as? String }
        #expect(codecs.contains("h264"), "\(info)")
    }
}
#endif
