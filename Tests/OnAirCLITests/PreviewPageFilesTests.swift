#if os(Linux)
import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// The preview page's files (Sources/OnAirServing/Preview/page/) as the binary carries them: a copy
/// of `onair` alone in an empty directory serves the page with every file in it, and the script
/// it serves is valid JavaScript.
struct PreviewPageFilesTests {
    @Test func copiedBinaryAloneServesThePageWithItsFiles() throws {
        let dir = try Tools.temporaryDirectory("preview-copy")
        defer { try? FileManager.default.removeItem(at: dir) }
        let alone = dir.appendingPathComponent("alone")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: false)
        let copy = alone.appendingPathComponent("onair").path
        let copied = try Tools.run("cp", [Tools.onairExecutable, copy])
        try #require(copied.status == 0, "cp: \(copied.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: alone.path) == ["onair"])

        // Port 0: the kernel picks a free one, and serve says which on its "serving" line.
        let log = dir.appendingPathComponent("serve.log").path
        let server = try StreamTestProcess(
            copy,
            [
                "serve", "--listen", "127.0.0.1:0", "--duration", "5", "--size", "160x120",
                "--fps", "15", "--bitrate", "200k", "--preset", "ultrafast",
            ],
            stderrPath: log)
        defer { server.kill() }
        var base: String?
        _ = waitUntil(timeout: 20) {
            base = server.stderr.firstMatch(of: /\(page: (http:\/\/127\.0\.0\.1:[0-9]+)\/\)/).map { String($0.1) }
            return base != nil
        }
        let url = try #require(base, "serve never said where it serves: \(server.stderr)") + "/"
        let body = dir.appendingPathComponent("page.html").path
        let result = try Tools.run("curl", ["-s", "-m", "10", "-o", body, "-w", "%{http_code} %{content_type}", url])
        #expect(result.stdoutText == "200 text/html; charset=utf-8", "GET \(url): \(result.stdoutText) \(result.stderr)")
        let page = try String(contentsOfFile: body, encoding: .utf8)
        #expect(page.hasPrefix("<!doctype html>") && page.contains("<title>OnAir live preview</title>"))
        #expect(page.contains("data-path=\"/live.mp4\""), "the list of what is served")

        // Every file of the page is in it, as it is in the source tree: the binary carries them.
        let files = try Tools.previewPageFiles()
        #expect(Set(files.keys) == ["index.html", "style.css", "mp4.js", "player.js", "webrtc.js", "framecode.js", "plots.js", "main.js"])
        for (name, text) in files where name != "index.html" {
            #expect(page.contains(text), "\(name) is not in the page the copy serves")
        }
        #expect(!page.contains("<script src") && !page.contains("<link rel=\"stylesheet\""), "every reference is inlined")
        #expect(server.wait(timeout: 20), "serve did not end after its duration")
    }

    @Test(.enabled(if: Self.node != nil, "node is not installed"))
    func servedScriptIsValidJavaScript() throws {
        let dir = try Tools.temporaryDirectory("preview-script")
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = PreviewPage.html()
        let start = try #require(page.range(of: "<script>\n"))
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        let script = String(page[start.upperBound..<end.lowerBound])
        #expect(script.hasPrefix("'use strict';\n"))
        let file = dir.appendingPathComponent("page.js")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let checked = try Tools.run(Self.node!, ["--check", file.path])
        #expect(checked.status == 0, "node --check: \(checked.stderr)")

        // The checker finds a mistake in strict mode (a control: the check above can fail).
        let broken = dir.appendingPathComponent("broken.js")
        try (script + "\nfunction twice(a, a) { return a; }\n").write(to: broken, atomically: true, encoding: .utf8)
        #expect(try Tools.run(Self.node!, ["--check", broken.path]).status != 0)
    }

    /// `node`'s path, or nil when it is not installed.
    static let node: String? = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }
}
#endif
