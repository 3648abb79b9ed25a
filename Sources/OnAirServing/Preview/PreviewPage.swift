#if os(Linux)
import Foundation

/// The browser preview that `onair serve` answers on `GET /`: one self-contained HTML document
/// (markup, style and script written in this project, nothing fetched from elsewhere) that plays
/// over WebRTC from `/whep` (WHEP) or, by choice (`?via=mse`) or when WebRTC does not work (said
/// why on the page), `/live.mp4` through Media Source Extensions, chasing the live edge; it plots
/// `/stats.json`, says in words what is wrong, reconnects by itself and, for the synthetic source,
/// reads the frame code to show glass-to-glass latency.
///
/// The page is written as ordinary files in `Preview/page/` — `index.html`, `style.css` and
/// one script module per file (`mp4.js` the box parser, `player.js` MSE playback, `webrtc.js` the
/// WHEP client, `framecode.js`
/// the code reader, `plots.js`, `main.js`) — which scripts/embed-files.py writes into
/// `EmbeddedFiles` (Preview/EmbeddedFiles.swift), compiled into the binary. `index.html` links the style sheet and the scripts; the page as served has
/// them inline (`inlined(_:file:)`), so it is one request and works from a copied binary.
/// Every request the page makes (`/live.mp4`, `/stats.json`, `/whep`) sends the `?token=` of the
/// page's own URL as an `Authorization: Bearer` header, never in its URL.
package enum PreviewPage {
    /// The whole page as served; `formats` are the streams served (`live.ts`, `live.mp4`,
    /// `live.m3u8`), `srtPort` the SRT listener's port and `query` (`?token=…` or empty) what the
    /// links in the list of what else is served carry (the script also adds the token of the
    /// page's own URL to every link, for players that cannot send a header).
    public static func html(
        formats: [String] = ["live.ts", "live.mp4", "live.m3u8"], srtPort: Int? = nil,
        query: String = ""
    ) -> String {
        document.beforeServed + served(formats: formats, srtPort: srtPort, query: query) + document.afterServed
    }

    /// The line of `index.html` that the list of what else is served replaces.
    static let servedMarker = "  <!-- served -->\n"

    /// `index.html` with its style sheet and scripts inline, split where the list of what else is
    /// served goes (at the end when the marker is missing).
    static let document: (beforeServed: String, afterServed: String) = {
        let page = inlined(EmbeddedFiles.indexHTML, file: EmbeddedFiles.named)
        guard let marker = page.range(of: servedMarker) else { return (page, "") }
        return (String(page[..<marker.lowerBound]), String(page[marker.upperBound...]))
    }()

    /// `document` with each line `<link rel="stylesheet" href="NAME">` replaced by a `<style>`
    /// element holding the file NAME, and each run of lines `<script src="NAME"></script>` by one
    /// strict-mode `<script>` element holding the files in order. A reference `file` cannot resolve
    /// is left as it is (and the page's test finds it).
    static func inlined(_ document: String, file: (String) -> String?) -> String {
        var output = ""
        var scripts: [String] = []
        func endScripts() {
            guard !scripts.isEmpty else { return }
            output += "<script>\n'use strict';\n" + scripts.joined() + "</script>\n"
            scripts = []
        }
        var lines = document.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        for line in lines {
            if let name = reference(in: line, prefix: "<script src=\"", suffix: "\"></script>"), let text = file(name) {
                scripts.append(text)
                continue
            }
            endScripts()
            if let name = reference(in: line, prefix: "<link rel=\"stylesheet\" href=\"", suffix: "\">"), let text = file(name) {
                output += "<style>\n" + text + "</style>\n"
            } else {
                output += line + "\n"
            }
        }
        endScripts()
        return output
    }

    /// The file name in `line` when it is exactly `prefix` NAME `suffix` (spaces around allowed).
    private static func reference(in line: Substring, prefix: String, suffix: String) -> String? {
        let trimmed = line.drop(while: { $0 == " " })
        guard trimmed.hasPrefix(prefix), trimmed.hasSuffix(suffix), trimmed.count > prefix.count + suffix.count else { return nil }
        return String(trimmed.dropFirst(prefix.count).dropLast(suffix.count))
    }

    /// What each stream is for, by file name.
    static let streamDescriptions = [
        "live.ts": "MPEG-TS, for ffplay, VLC, mpv, ffmpeg, <code>onair play</code>",
        "live.mp4": "fragmented MP4 (what this page plays over MSE)",
        "live.m3u8": "HLS",
    ]

    /// The list of what else is served, each link with `query`.
    static func served(formats: [String], srtPort: Int?, query: String) -> String {
        let query = escaped(query)
        var items = formats.map { name in
            let about = streamDescriptions[name].map { " — " + $0 } ?? ""
            return "      <li><a data-path=\"/\(name)\" href=\"/\(name)\(query)\">/\(name)</a>\(about)</li>\n"
        }
        items.append(
            "      <li><a data-path=\"/stats.json\" href=\"/stats.json\(query)\">/stats.json</a> — the encoder's figures and one entry per viewer</li>\n"
        )
        if let srtPort {
            items.append(
                "      <li>SRT callers: <code data-srt-port=\"\(srtPort)\">srt://HOST:\(srtPort)?mode=caller</code> (MPEG-TS)</li>\n")
        }
        return "  <section class=\"served\">\n    <h2>Also served here</h2>\n    <ul>\n" + items.joined() + "    </ul>\n  </section>\n"
    }

    /// `text` safe inside an HTML attribute or element.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
#endif
