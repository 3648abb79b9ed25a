#if os(Linux)
import Foundation

#if canImport(OnAirHTTP)
import OnAirCore
import OnAirHTTP
import OnAirStreaming

/// The Low-Latency HLS face of `onair serve`: the media playlists of the encodes written with
/// parts, answered from their `LowLatencyHLSFeed` (blocking reloads, delta updates, rendition
/// reports, the token on every URI), the preload hint's part held until it exists, and the cache
/// headers of the fMP4 files.
///
/// A held request is an `HTTPPendingResponse` answered from the feed's callback (the writer's
/// thread when the part is published, the feed's timer at the deadline): the route code never waits.
package struct ServeLowLatencyHLS: Sendable {
    /// The feeds, by encode name (`ServeHub.main` for the main one).
    package let feeds: [String: LowLatencyHLSFeed]
    /// The latest playlists rendered: the many held requests one publish answers cost one rendering.
    private let rendered = Locked<[String: [UInt8]]>([:])

    /// A face over `feeds`.
    package init(feeds: [String: LowLatencyHLSFeed]) {
        self.feeds = feeds
    }

    /// Whether `rendition`'s playlist is Low-Latency HLS.
    package func serves(_ rendition: String) -> Bool { feeds[rendition] != nil }

    /// The media playlist of `rendition` for `request`: at once, or held until the segment or part
    /// its `_HLS_msn`/`_HLS_part` ask for is listed (503 after three target durations), 400 when
    /// they are malformed or too far ahead; a delta update for `_HLS_skip=YES`. Every URI gets
    /// `folder` before it and `query` (`?token=…` or empty) after it.
    package func playlist(_ rendition: String, request: HTTPRequest, query: String, folder: String) -> HTTPResponse {
        guard let feed = feeds[rendition] else { return .text(404, "the playlist is not ready yet") }
        let number = { (name: String) -> Int?? in
            guard let text = request.query[name] else { return .some(nil) }
            return Int(text).map { .some($0) } ?? nil
        }
        guard let msn = number("_HLS_msn"), let part = number("_HLS_part") else {
            return .text(400, "_HLS_msn and _HLS_part are whole numbers")
        }
        let skip = request.query["_HLS_skip"].map { $0 == "YES" || $0 == "v2" } ?? false
        let blocking = msn != nil
        let render = { @Sendable (playlist: LowLatencyHLSPlaylist) -> HTTPResponse in
            self.response(playlist, rendition: rendition, skip: skip, blocking: blocking, query: query, folder: folder)
        }
        guard let latest = feed.playlist else {
            // A server that has just started lists its first part a part's time after its first
            // frame: a blocking reload for the first segment's start is held until then (a player
            // that reconnects after a restart is answered the moment there is something to play),
            // anything else is answered at once.
            guard msn == 0, (part ?? 0) == 0 else { return .text(404, "the playlist is not ready yet") }
            return hold(feed, seconds: Self.firstPlaylistHold, msn: 0, part: part, render: render)
        }
        switch latest.reload(msn: msn, part: part) {
        case .badRequest(let reason):
            return .text(400, reason)
        case .ready:
            return render(latest)
        case .hold:
            guard let msn else { return render(latest) }
            return hold(feed, seconds: latest.holdLimit, msn: msn, part: part, render: render)
        }
    }

    /// How long a blocking reload for the first part is held before the encode's first playlist
    /// exists (its target duration, which sets the usual limit, is not known yet): the encoder's
    /// start and the first part of the longest `--hls-part-duration` fit in it.
    package static let firstPlaylistHold = 6.0

    /// A response held until `feed`'s playlist holds segment `msn` (part `part`), rendered by
    /// `render`; 503 after `seconds`.
    private func hold(
        _ feed: LowLatencyHLSFeed, seconds: Double, msn: Int, part: Int?,
        render: @escaping @Sendable (LowLatencyHLSPlaylist) -> HTTPResponse
    ) -> HTTPResponse {
        let pending = HTTPPendingResponse()
        let answer = { @Sendable (playlist: LowLatencyHLSPlaylist?) in
            pending.answer(playlist.map(render) ?? Self.unavailable("the segment or part asked for did not come in time"))
        }
        let id = feed.wait(seconds: seconds, until: { $0.contains(msn: msn, part: part) }, answer: answer)
        if let id { pending.onCancel { feed.cancel(id) } }
        return HTTPResponse(status: 200, body: .pending(pending))
    }

    /// `rendition`'s HLS file `name` from `directory`: a part still to come (the preload hint, or
    /// the next segment's first part) is held until the writer publishes it; nil when `rendition`
    /// has no feed (the caller serves the file as before).
    package func file(_ rendition: String, name: String, directory: String) -> HTTPResponse? {
        guard let feed = feeds[rendition] else { return nil }
        if let file = HLSFileServer.file(named: name, in: directory) { return Self.immutable(file) }
        guard let numbers = LowLatencyHLSPlaylist.partNumbers(name), let latest = feed.playlist, !latest.ended,
            !latest.lists(name), numbers.segment >= latest.nextSequence, numbers.segment <= latest.nextSequence + 1,
            latest.reload(msn: numbers.segment, part: numbers.part) == .hold
        else { return .text(404, "not found") }
        let pending = HTTPPendingResponse()
        let answer = { @Sendable (playlist: LowLatencyHLSPlaylist?) in
            guard playlist != nil, let file = HLSFileServer.file(named: name, in: directory) else {
                return pending.answer(Self.unavailable("the part did not come in time"))
            }
            pending.answer(Self.immutable(file))
        }
        let id = feed.wait(seconds: latest.holdLimit, until: { $0.lists(name) || $0.ended }, answer: answer)
        if let id { pending.onCancel { feed.cancel(id) } }
        return HTTPResponse(status: 200, body: .pending(pending))
    }

    /// The playlist's answer. A blocking reload's answer names a state that never changes: a cache
    /// may keep it a few target durations; a plain request's answer is stale within a part.
    private func response(
        _ playlist: LowLatencyHLSPlaylist, rendition: String, skip: Bool, blocking: Bool, query: String, folder: String
    ) -> HTTPResponse {
        // The other encodes' playlists sit beside the main one's (`/live.m3u8`, `/sub.m3u8`).
        let reports = feeds.filter { $0.key != rendition }.sorted { $0.key < $1.key }.compactMap { name, feed in
            feed.playlist.map { LowLatencyHLSPlaylist.RenditionReport(uri: name + ".m3u8" + query, playlist: $0) }
        }
        // What the text depends on: the playlist's state (the writer only adds), the request's form, the reports.
        let key =
            [
                rendition, "\(playlist.nextSequence)", "\(playlist.current?.parts.count ?? -1)", "\(playlist.ended)", "\(skip)", query,
                folder,
            ].joined(separator: " ") + reports.map { " \($0.uri) \($0.lastMSN) \($0.lastPart)" }.joined()
        let bytes: [UInt8]
        if let known = rendered.withLock({ $0[key] }) {
            bytes = known
        } else {
            bytes = Array(playlist.text(skip: skip, reports: reports) { folder + $0 + query }.utf8)
            rendered.withLock { entries in
                if entries.count >= 64 { entries.removeAll() }
                entries[key] = bytes
            }
        }
        let cache = blocking ? "public, max-age=\(3 * playlist.targetDurationTag)" : "no-store"
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "application/vnd.apple.mpegurl"), ("Cache-Control", cache)], body: .bytes(bytes))
    }

    /// A part, segment or init section: its name is never written twice in a run.
    private static func immutable(_ file: (bytes: [UInt8], contentType: String)) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: [("Content-Type", file.contentType), ("Cache-Control", "public, max-age=3600, immutable")],
            body: .bytes(file.bytes))
    }

    private static func unavailable(_ reason: String) -> HTTPResponse {
        var response = HTTPResponse.text(503, reason)
        response.headers.append(("Cache-Control", "no-store"))
        return response
    }
}
#endif
#endif
