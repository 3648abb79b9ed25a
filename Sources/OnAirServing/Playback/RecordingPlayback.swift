#if os(Linux)
import Foundation
import OnAirCore

#if canImport(OnAirHTTP) && canImport(OnAirFFmpeg)
import OnAirFFmpeg
import OnAirHTTP

/// MediaMTX's playback API on the serve listener, over the session's segmented recording:
/// `GET /list?path=P[&start=&end=]` answers `[{"start", "duration", "url"}]` (runs of recording
/// without a gap, RFC 3339 times, seconds), `GET /get?path=P&start=T&duration=S[&format=fmp4|mp4]`
/// the span stitched across segments with gaps skipped: fragmented MP4 streamed as it is made, or
/// a regular MP4 (index in front) that answers `Range` with 206, or (`format=hls`) an HLS playlist
/// whose media are byte ranges of one fragmented MP4 of the span built for it
/// (`/playback/ID.mp4`, answering `Range`). Listing reads the recording's journal, file names and
/// `stat` only. A bad query is 400, nothing recorded in the span 404; `path` is a stream name,
/// never a file path (anything else is 400).
package final class RecordingPlayback: Sendable {
    /// The recording served.
    package let recording: RecordingSettings
    private let cacheDirectory: String
    /// Built MP4 files by span key, oldest first (at most `cachedFiles`).
    private let cache = Locked<[Built]>([])
    /// Held while a span's file is built: one build at a time, the requests for it wait for it.
    private let building = Locked(())
    /// How many built MP4 spans are kept for further Range requests.
    package static let cachedFiles = 4

    /// A span's file built once for the requests that follow: a regular MP4, or for HLS a
    /// fragmented one with its layout.
    private struct Built {
        var key: String
        /// The id in a playlist's media URIs (`/playback/ID.mp4`).
        var id: String
        var path: String
        var size: Int64
        var layout: (initSize: Int64, fragments: [SpanPlaylist.Fragment], leadIn: Double)?
    }

    /// Playback of `recording`; built MP4 spans go under `cacheDirectory` (made; emptied by `stop`).
    package init(recording: RecordingSettings, cacheDirectory: String? = nil) {
        self.recording = recording
        self.cacheDirectory =
            cacheDirectory
            ?? (NSTemporaryDirectory() as NSString).appendingPathComponent("onair-playback-\(getpid())-\(UUID().uuidString.prefix(8))")
    }

    /// Deletes the built MP4 spans.
    package func stop() {
        cache.withLock { $0 = [] }
        try? FileManager.default.removeItem(atPath: cacheDirectory)
    }

    /// The answer to `/list`; `query` (the token) is added to each URL.
    package func list(_ request: HTTPRequest, query: String) -> HTTPResponse {
        let asked: PlaybackQuery
        do {
            asked = try PlaybackQuery.list(request.query)
        } catch {
            return .text(400, error.description)
        }
        guard asked.path == recording.pathName else { return .text(404, "no recording of \(asked.path)") }
        let spans = PlaybackPlan.spans(recording.index.scan(from: asked.start, to: asked.end), start: asked.start, end: asked.end)
        guard !spans.isEmpty else { return .text(404, "nothing recorded") }
        let base = request.headers["host"].flatMap { Self.isHost($0) ? "http://\($0)" : nil } ?? ""
        let extra = query.isEmpty ? "" : "&" + query.dropFirst()
        let entries = spans.map { span -> String in
            let start = PlaybackQuery.formatRFC3339(span.start)
            let duration = String(format: "%.6f", span.duration)
            let url = "\(base)/get?path=\(asked.path)&start=\(start)&duration=\(duration)\(extra)"
            return "{\"start\":\"\(start)\",\"duration\":\(duration),\"url\":\"\(url)\"}"
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-cache")],
            body: .bytes(Array(("[" + entries.joined(separator: ",") + "]").utf8)))
    }

    /// The answer to `/get`; `query` (the token the client came with) is added to a playlist's URIs.
    package func get(_ request: HTTPRequest, query: String = "") -> HTTPResponse {
        let asked: PlaybackQuery
        do {
            asked = try PlaybackQuery.get(request.query)
        } catch {
            return .text(400, error.description)
        }
        guard asked.path == recording.pathName, let start = asked.start, let end = asked.end else {
            return .text(404, "no recording of \(asked.path)")
        }
        let pieces = PlaybackPlan.pieces(recording.index.scan(from: start, to: end), start: start, end: end)
        guard !pieces.isEmpty else { return .text(404, "nothing recorded in that span") }
        switch asked.format {
        case .fmp4:
            do {
                // The first chunk before the headers: it tells how far before `start` the keyframe is.
                let writer = try RecordingSpanWriter(pieces: pieces)
                let first = try writer.nextChunk() ?? []
                return HTTPResponse(
                    status: 200,
                    headers: [
                        ("Content-Type", "video/mp4"), ("Cache-Control", "no-cache"), ("Accept-Ranges", "none"),
                        (Self.startOffsetHeader, String(format: "%.6f", writer.leadIn ?? 0)),
                    ],
                    body: .stream(SpanStream(writer, first: first)))
            } catch {
                return .text(500, "cannot read the recording: \(error)")
            }
        case .mp4, .hls:
            let fragmented = asked.format == .hls
            let key =
                "\(asked.path)|\(start.timeIntervalSince1970)|\(end.timeIntervalSince1970)|\(fragmented)|\(pieces.map(\.path).joined(separator: ","))"
            let file: Built
            do {
                file = try builtFile(key: key, pieces: pieces, fragmented: fragmented)
            } catch {
                return .text(500, "cannot stitch the recording: \(error)")
            }
            guard asked.format == .hls, let layout = file.layout else {
                return Self.ranged(file: file.path, size: file.size, range: request.headers["range"])
            }
            guard layout.fragments.count <= SpanPlaylist.maximumFragments else {
                return .text(413, "the span has \(layout.fragments.count) pieces, more than one playlist lists: ask for a shorter one")
            }
            let uri = "playback/\(SpanPlaylist.mediaName(id: file.id))\(query)"
            let playlist = SpanPlaylist.text(initSize: layout.initSize, fragments: layout.fragments, uri: uri, startOffset: layout.leadIn)
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "application/vnd.apple.mpegurl"), ("Cache-Control", "no-cache")],
                body: .bytes(Array(playlist.utf8)))
        }
    }

    /// The header of a `format=fmp4` answer giving the seconds from its first frame to the asked
    /// start (fragmented MP4 starts at the keyframe at or before it).
    package static let startOffsetHeader = "X-OnAir-Start-Offset"

    /// The answer to `/playback/NAME`: the fragmented MP4 an HLS playlist was made from (by the id
    /// in its name, so a recording grown since does not move its byte ranges), whole or in part.
    package func media(named name: String, request: HTTPRequest) -> HTTPResponse {
        guard let id = SpanPlaylist.mediaID(name) else { return .text(404, "not found") }
        let hit = cache.withLock { $0.first { $0.id == id && $0.layout != nil } }
        guard let hit, FileManager.default.fileExists(atPath: hit.path) else {
            return .text(404, "that span is gone: ask for its playlist again")
        }
        return Self.ranged(file: hit.path, size: hit.size, range: request.headers["range"])
    }

    /// Whether `name` may be a span's file under `/playback/` (`SpanPlaylist.mediaName(id:)`).
    static func isMediaName(_ name: String) -> Bool { SpanPlaylist.mediaID(name) != nil }

    /// The file of a span (a regular MP4, or `fragmented` for HLS), built once and kept for the
    /// requests that follow.
    private func builtFile(key: String, pieces: [PlaybackPlan.Piece], fragmented: Bool) throws -> Built {
        try building.withLock { _ in
            if let hit = cache.withLock({ $0.first { $0.key == key } }), FileManager.default.fileExists(atPath: hit.path) {
                return hit
            }
            try FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
            let id = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let path = (cacheDirectory as NSString).appendingPathComponent("span-\(id).mp4")
            var layout: (initSize: Int64, fragments: [SpanPlaylist.Fragment], leadIn: Double)?
            do {
                if fragmented {
                    layout = try RecordingSpanWriter.writeFragments(pieces: pieces, to: path)
                } else {
                    try RecordingSpanWriter.writeFile(pieces: pieces, to: path)
                }
            } catch {
                try? FileManager.default.removeItem(atPath: path)
                throw error
            }
            let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
            let built = Built(key: key, id: id, path: path, size: size, layout: layout)
            cache.withLock { cache in
                cache.append(built)
                while cache.count > Self.cachedFiles {
                    try? FileManager.default.removeItem(atPath: cache.removeFirst().path)
                }
            }
            return built
        }
    }

    /// A file answered whole (200, streamed) or in part (206) as `range` asks.
    static func ranged(file: String, size: Int64, range: String?) -> HTTPResponse {
        var headers: [(name: String, value: String)] = [("Content-Type", "video/mp4"), ("Accept-Ranges", "bytes")]
        switch ByteRange.parse(range, size: size) {
        case .unsatisfiable:
            headers.append(("Content-Range", "bytes */\(size)"))
            return HTTPResponse(status: 416, headers: headers, body: .bytes([]))
        case .whole:
            guard let handle = FileHandle(forReadingAtPath: file) else { return .text(404, "gone") }
            if size <= 8 << 20 {
                let bytes = (try? handle.readToEnd()).map { [UInt8]($0) } ?? []
                try? handle.close()
                return HTTPResponse(status: 200, headers: headers, body: .bytes(bytes))
            }
            return HTTPResponse(status: 200, headers: headers, body: .stream(FileStream(handle)))
        case let .part(lower, upper):
            guard let handle = FileHandle(forReadingAtPath: file) else { return .text(404, "gone") }
            defer { try? handle.close() }
            do {
                try handle.seek(toOffset: UInt64(lower))
                let bytes = [UInt8](try handle.read(upToCount: Int(upper - lower + 1)) ?? Data())
                headers.append(("Content-Range", "bytes \(lower)-\(lower + Int64(bytes.count) - 1)/\(size)"))
                return HTTPResponse(status: 206, headers: headers, body: .bytes(bytes))
            } catch {
                return .text(500, "cannot read the span")
            }
        }
    }

    /// A Host header worth echoing in URLs: a name or address and a port, nothing else.
    static func isHost(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 255
            && text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || ".-:[]".unicodeScalars.contains($0) }
    }
}

/// A stitched fragmented MP4 read out as the response body, chunk by chunk as it is made (from
/// the recording's files, on the read: it never has to wait for anything else).
final class SpanStream: HTTPStreamSource, Sendable {
    private struct State {
        var writer: RecordingSpanWriter?
        var pending: [UInt8]
        var offset = 0
    }

    /// The writer is used only inside the box: its lock also keeps one read at a time.
    private let state: Locked<State>

    init(_ writer: RecordingSpanWriter, first: [UInt8] = []) {
        state = Locked(State(writer: writer, pending: first))
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> HTTPStreamRead {
        state.withLock { state in
            while state.offset >= state.pending.count {
                guard let writer = state.writer else { return .end }
                do {
                    guard let chunk = try writer.nextChunk() else {
                        state.writer = nil
                        return .end
                    }
                    state.pending = chunk
                    state.offset = 0
                } catch {
                    state.writer = nil
                    return .abort
                }
            }
            let count = min(buffer.count, state.pending.count - state.offset)
            let offset = state.offset
            state.pending.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
            }
            state.offset += count
            return .bytes(count)
        }
    }

    func notify(_ wake: @escaping @Sendable () -> Void) { wake() }

    func close() {
        state.withLock { state in
            state.writer = nil
            state.pending = []
        }
    }
}

/// A file read out as the response body (every read gives bytes or the end).
final class FileStream: HTTPStreamSource, Sendable {
    /// The file, nil once read to its end or closed; its lock keeps one read at a time.
    private let handle: Locked<FileHandle?>

    init(_ handle: FileHandle) {
        self.handle = Locked(handle)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> HTTPStreamRead {
        handle.withLock { current in
            guard let handle = current else { return .end }
            guard let data = try? handle.read(upToCount: buffer.count), !data.isEmpty else {
                try? handle.close()
                current = nil
                return .end
            }
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), count: data.count)
            return .bytes(data.count)
        }
    }

    func notify(_ wake: @escaping @Sendable () -> Void) { wake() }

    func close() {
        handle.withLock { current in
            try? current?.close()
            current = nil
        }
    }
}
#endif
#endif
