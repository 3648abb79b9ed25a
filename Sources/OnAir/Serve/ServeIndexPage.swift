/// The page `GET /` answers: what this server serves, with links (the token carried along when
/// one is needed). The browser preview replaces this page.
enum ServeIndexPage {
    /// The HTML of the page; `query` is `?token=…` or empty, `formats` what is produced.
    static func html(query: String, formats: [String], srtPort: Int?) -> String {
        let links = formats.map { "<li><a href=\"/\($0)\(query)\">/\($0)</a></li>" }.joined(separator: "\n")
        let srt = srtPort.map { "<li>SRT callers: <code>srt://HOST:\($0)?mode=caller</code> (MPEG-TS)</li>" } ?? ""
        return """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>OnAir</title></head>
        <body>
        <h1>OnAir live</h1>
        <p>This device serves one live encode (H.264 + AAC) to many viewers:</p>
        <ul>
        \(links)
        <li><a href="/stats.json\(query)">/stats.json</a>: encoder and viewer figures</li>
        \(srt)
        </ul>
        <p>Open a stream with ffplay, VLC, mpv or <code>onair play</code>.</p>
        </body></html>
        """
    }
}
