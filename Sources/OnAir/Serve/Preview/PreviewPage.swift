/// The browser preview that `onair serve` answers on `GET /`: one self-contained HTML document
/// (markup, style and script written in this project, nothing fetched from elsewhere) that plays
/// `/live.mp4` through Media Source Extensions, chases the live edge, plots `/stats.json`, says in
/// words what is wrong, reconnects by itself and, for the synthetic source, reads the frame code
/// to show glass-to-glass latency.
///
/// The parts live in separate files as raw string literals: the markup here, the style in
/// `PreviewPage+Style.swift`, and one script module per file (`PreviewPage+MP4.swift` for the box
/// parser, `+Player` for MSE playback, `+FrameCode` for the code reader, `+Plots`, `+Main`).
/// Every request the page makes keeps the `?token=` of the page's own URL.
public enum PreviewPage {
    /// The whole page as served; `formats` are the streams served (`live.ts`, `live.mp4`,
    /// `live.m3u8`), `srtPort` the SRT listener's port and `query` (`?token=…` or empty) what the
    /// links in the list of what else is served carry (the script also adds the token of the
    /// page's own URL to every link and request).
    public static func html(formats: [String] = ["live.ts", "live.mp4", "live.m3u8"], srtPort: Int? = nil,
                            query: String = "") -> String {
        head + "<style>\n" + style + "</style>\n</head>\n" + body + served(formats: formats, srtPort: srtPort, query: query) + "</main>\n"
            + "<script>\n'use strict';\n" + mp4Script + playerScript + frameCodeScript + plotsScript + mainScript
            + "</script>\n</body>\n</html>\n"
    }

    /// What each stream is for, by file name.
    static let streamDescriptions = [
        "live.ts": "MPEG-TS, for ffplay, VLC, mpv, ffmpeg, <code>onair play</code>",
        "live.mp4": "fragmented MP4 (what this page plays)",
        "live.m3u8": "HLS",
    ]

    /// The list of what else is served, each link with `query`.
    static func served(formats: [String], srtPort: Int?, query: String) -> String {
        let query = escaped(query)
        var items = formats.map { name in
            let about = streamDescriptions[name].map { " — " + $0 } ?? ""
            return "      <li><a data-path=\"/\(name)\" href=\"/\(name)\(query)\">/\(name)</a>\(about)</li>\n"
        }
        items.append("      <li><a data-path=\"/stats.json\" href=\"/stats.json\(query)\">/stats.json</a> — the encoder's figures and one entry per viewer</li>\n")
        if let srtPort {
            items.append("      <li>SRT callers: <code data-srt-port=\"\(srtPort)\">srt://HOST:\(srtPort)?mode=caller</code> (MPEG-TS)</li>\n")
        }
        return "  <section class=\"served\">\n    <h2>Also served here</h2>\n    <ul>\n" + items.joined() + "    </ul>\n  </section>\n"
    }

    /// `text` safe inside an HTML attribute or element.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The document's head up to its style sheet.
    static let head = ##"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>OnAir live preview</title>

"""##

    /// The visible page: video, status line, plots and the list of what else is served.
    static let body = ##"""
<body>
<header>
  <h1>OnAir <span>live preview</span></h1>
  <p id="status" class="status" role="status" data-level="info">Starting…</p>
</header>
<main>
  <section class="stage">
    <video id="video" autoplay muted playsinline disablepictureinpicture></video>
    <p id="overlay" class="overlay" hidden></p>
  </section>
  <section class="facts">
    <button id="sound" type="button">Sound on</button>
    <span id="facts">–</span>
  </section>
  <section class="plots" aria-label="Live figures, last three minutes">
    <figure><figcaption>Video bitrate <b id="value-bitrate">–</b></figcaption><canvas id="plot-bitrate"></canvas></figure>
    <figure><figcaption>Frame rate <b id="value-fps">–</b></figcaption><canvas id="plot-fps"></canvas></figure>
    <figure><figcaption>Encode time <b id="value-encode">–</b></figcaption><canvas id="plot-encode"></canvas></figure>
    <figure><figcaption>Viewers <b id="value-viewers">–</b></figcaption><canvas id="plot-viewers"></canvas></figure>
    <figure><figcaption id="caption-latency">Latency in this page <b id="value-latency">–</b></figcaption><canvas id="plot-latency"></canvas></figure>
  </section>

"""##
}
