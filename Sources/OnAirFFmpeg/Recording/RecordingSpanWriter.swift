#if os(Linux)
import CFFmpeg
import Foundation
import OnAirCore

/// Stitches pieces of recorded segments (`PlaybackPlan.pieces`) into one MP4: fragmented and
/// produced chunk by chunk (`nextChunk()`, for a response streamed as it is made), or a regular
/// MP4 file with its index in front (`writeFile(to:)`, for answers to `Range` requests).
///
/// Each piece starts at the keyframe at or before its `from` (so it decodes alone) and ends
/// before its `to`; the next piece follows at once on the output's timeline, so a gap between
/// segments is skipped, not filled. Times are segment-relative: a segment's first video packet
/// is its start. Packets are held back one per stream so each sample lasts exactly until the
/// next (as the recorder does). Recordings in fragmented MP4 or MPEG-TS are read alike.
public final class RecordingSpanWriter {
    private var pieces: [PlaybackPlan.Piece]
    private var reader: MediaFileReader?
    private var writer: ContainerWriter?
    private var output: MemoryOutput?
    private var headerSent = false
    private var trackOf: [Int: (track: Int, type: MediaType, scale: Int32)] = [:]
    /// Output ticks where the current piece starts, and the end reached so far, per type.
    private var pieceBase: [MediaType: Int64] = [:]
    private var outputEnd: [MediaType: Int64] = [:]
    private var pieceState: PieceState?
    /// The last packet of each output track, written once the next one gives its duration.
    private var heldBack: [Int: Held] = [:]
    private var flushedAt = 0.0
    /// Packets buffered until the piece's `from` is reached (the GOP before it).
    private var gop: [(MediaFileReader.Packet, Double)] = []
    private var finished = false

    private struct PieceState {
        var origin: Double?
        var firstKept: Double?
        var started = false
    }

    private struct Held {
        var track: Int
        var data: [UInt8]
        var dts: Int64
        var pts: Int64
        var duration: Int64
        var key: Bool
    }

    /// A writer over `pieces` (in order); throws when the first segment cannot be read.
    package init(pieces: [PlaybackPlan.Piece]) throws {
        self.pieces = pieces
        guard !pieces.isEmpty else { throw FFmpegError(code: onair_averror(2), operation: "stitch an empty span") }
    }

    /// The next bytes of the fragmented MP4 (at least 64 KiB but at the end), or nil at the end.
    public func nextChunk() throws -> [UInt8]? {
        var collected: [UInt8] = []
        while collected.count < 64 * 1024 && !finished {
            if !(try step(flushEvery: 1)) { try end() }
            collected += take()
        }
        collected += take()
        return collected.isEmpty && finished ? nil : collected
    }

    /// What the muxer has written since the last call, the header first.
    private func take() -> [UInt8] {
        guard let output else { return [] }
        if !headerSent, let header = output.header {
            headerSent = true
            return header + output.take()
        }
        return headerSent ? output.take() : []
    }

    private var filePath: String?

    /// Makes the span into a regular MP4 at `path` (index in front).
    package static func writeFile(pieces: [PlaybackPlan.Piece], to path: String) throws {
        let writer = try RecordingSpanWriter(pieces: pieces)
        writer.filePath = path
        while try writer.step(flushEvery: nil) {}
        try writer.end()
    }

    /// Reads and writes one packet; false when every piece is done.
    private func step(flushEvery: Double?) throws -> Bool {
        if reader == nil {
            guard let piece = pieces.first else { return false }
            let opened = try MediaFileReader(path: piece.path)
            reader = opened
            pieceState = PieceState()
            gop = []
            try prepareWriter(opened)
            for type in [MediaType.video, .audio] { pieceBase[type] = outputEnd.values.max() ?? 0 }
        }
        guard let reader, let piece = pieces.first else { return false }
        guard let packet = try reader.nextPacket() else {
            try closePiece()
            return true
        }
        guard let mapped = trackOf[packet.streamIndex], let dts = packet.dts ?? packet.pts else { return true }
        var state = pieceState ?? PieceState()
        let hasVideo = trackOf.values.contains { $0.type == .video }
        if state.origin == nil {
            guard !hasVideo || mapped.type == .video else { return true }
            state.origin = dts
        }
        let relative = dts - (state.origin ?? 0)
        defer { pieceState = state }
        if relative >= piece.to - 1e-6, mapped.type == .video || !hasVideo {
            try closePiece()
            return true
        }
        if !state.started {
            let startsGOP = mapped.type == .video ? packet.isKeyframe : !hasVideo
            if startsGOP && relative <= piece.from + 1e-6 { gop = [] }
            if gop.isEmpty && !startsGOP { return true }
            gop.append((packet, relative))
            guard relative >= piece.from - 1e-6 else { return true }
            state.started = true
            let firstKept = gop.first?.1 ?? relative
            state.firstKept = firstKept
            for (buffered, time) in gop where time >= firstKept { try emit(buffered, relative: time, firstKept: firstKept) }
            gop = []
        } else {
            guard relative >= (state.firstKept ?? 0), relative < piece.to - 1e-6 else { return true }
            try emit(packet, relative: relative, firstKept: state.firstKept ?? 0)
        }
        if let flushEvery, let writer, Double(outputEnd[.video] ?? outputEnd[.audio] ?? 0) / 90_000 - flushedAt >= flushEvery {
            try writer.flush()
            flushedAt = Double(outputEnd[.video] ?? outputEnd[.audio] ?? 0) / 90_000
        }
        return true
    }

    private func prepareWriter(_ reader: MediaFileReader) throws {
        trackOf = [:]
        var tracks: [ContainerWriter.Track] = []
        for stream in reader.streams {
            guard let type = stream.mediaType else { continue }
            if type == .video, stream.codecName == "h264" {
                trackOf[stream.index] = (tracks.count, .video, 90_000)
                tracks.append(
                    .video(width: stream.width, height: stream.height, frameRate: stream.averageFrameRate ?? 0, extradata: stream.extradata)
                )
            } else if type == .audio, stream.codecName == "aac", stream.sampleRate > 0 {
                trackOf[stream.index] = (tracks.count, .audio, Int32(stream.sampleRate))
                tracks.append(.audio(sampleRate: stream.sampleRate, channels: stream.channels, extradata: stream.extradata))
            }
        }
        guard writer == nil else { return }
        guard !tracks.isEmpty else {
            throw FFmpegError(code: onair_averror_invaliddata(), operation: "find H.264 or AAC in \(pieces[0].path)")
        }
        if let filePath {
            writer = try ContainerWriter(destination: filePath, format: "mp4", tracks: tracks, options: ["movflags": "+faststart"])
        } else {
            let memory = try MemoryOutput()
            output = memory
            writer = try ContainerWriter(
                destination: "playback", format: "mp4", tracks: tracks,
                options: ["movflags": "+empty_moov+default_base_moof+frag_custom", "avoid_negative_ts": "disabled"],
                interleaved: false, output: memory)
        }
    }

    /// Writes a packet at its place on the output's timeline (held back one per stream).
    private func emit(_ packet: MediaFileReader.Packet, relative: Double, firstKept: Double) throws {
        guard let mapped = trackOf[packet.streamIndex] else { return }
        let scale = Double(mapped.scale)
        let base = pieceBase[mapped.type] ?? 0
        let basisSeconds = Double(base) / 90_000
        let dts = Int64(((relative - firstKept + basisSeconds) * scale).rounded())
        let ptsOffset = (packet.pts ?? packet.dts ?? 0) - (packet.dts ?? packet.pts ?? 0)
        let pts = dts + Int64((ptsOffset * scale).rounded())
        let duration = max(1, Int64((packet.duration * scale).rounded()))
        if var previous = heldBack[mapped.track] {
            if dts <= previous.dts { return }  // never backwards (a rounding at a piece boundary)
            previous.duration = dts - previous.dts
            try write(previous)
        }
        heldBack[mapped.track] = Held(
            track: mapped.track, data: packet.data, dts: dts, pts: max(pts, dts), duration: duration, key: packet.isKeyframe)
        let end = Int64((Double(dts + duration) / scale * 90_000).rounded())
        outputEnd[mapped.type] = max(outputEnd[mapped.type] ?? 0, end)
    }

    private func write(_ held: Held) throws {
        guard let writer else { return }
        let scale = Int32(trackOf.values.first { $0.track == held.track }?.scale ?? 90_000)
        try writer.write(
            track: held.track, data: held.data, pts: MediaTime(value: held.pts, timescale: scale),
            dts: MediaTime(value: held.dts, timescale: scale), duration: MediaTime(value: held.duration, timescale: scale),
            isKeyframe: held.key)
    }

    /// Ends a piece. What is held back stays: the next piece's first packets give it its duration,
    /// so the output goes on without a hole where the recording had a gap.
    private func closePiece() throws {
        reader = nil
        pieceState = nil
        gop = []
        if !pieces.isEmpty { pieces.removeFirst() }
        // The next piece starts where the longest stream of this one ended.
        let end = outputEnd.values.max() ?? 0
        for type in [MediaType.video, .audio] { outputEnd[type] = end }
    }

    private func end() throws {
        guard !finished else { return }
        finished = true
        for track in heldBack.keys.sorted() {
            if let held = heldBack.removeValue(forKey: track) { try write(held) }
        }
        try writer?.finish()
    }
}
#endif
