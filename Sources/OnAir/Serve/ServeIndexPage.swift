/// The page `GET /` answers: the browser preview (`PreviewPage`) — the live stream played in the
/// page, live plots of `/stats.json`, and links to everything else served.
enum ServeIndexPage {
    /// The HTML of the page; `query` is `?token=…` or empty (carried by the links), `formats` what
    /// is produced (`live.ts`, `live.mp4`, `live.m3u8`), `srtPort` the SRT listener's port.
    static func html(query: String, formats: [String], srtPort: Int?) -> String {
        PreviewPage.html(formats: formats, srtPort: srtPort, query: query)
    }
}
