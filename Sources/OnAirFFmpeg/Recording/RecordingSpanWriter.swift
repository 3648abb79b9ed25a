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
///
/// A regular MP4 is cut to the frame: its output timeline is 0 at the span's start, the GOP before
/// it at negative times, which the mov muxer hides behind an edit list (ffmpeg and GStreamer's
/// qtdemux honour it), so the first frame shown is the one at the start and the duration is the
/// span's. Fragmented output cannot hide frames that way: it starts at the keyframe at or before
/// the start, `leadIn` seconds early (said in `/get`'s `X-OnAir-Start-Offset` and the span
/// playlist's `EXT-X-START`).
///
/// For HLS (`writeFragments(to:)`) the fragmented MP4 goes to a file with fragments cut before a
/// video keyframe, at least `SpanPlaylist.fragmentDuration` apart and at the first keyframe after
/// a skipped gap, and the file's layout (init size, each fragment's bytes and duration) comes back.
package final class RecordingSpanWriter {
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
    /// HLS: the file written, its size so far, the init section's size and the fragments closed.
    private var fragmentFile: FileHandle?
    private var written: Int64 = 0
    private var initSize: Int64 = 0
    private var fragments: [SpanPlaylist.Fragment] = []
    /// HLS: where the open fragment starts (bytes, output seconds), whether a gap came before it,
    /// whether it holds a sample yet.
    private var fragmentOffset: Int64 = 0
    private var cutAt = 0.0
    private var openAfterGap = false
    private var openHasSamples = false
    /// Whether a gap lies before each piece still to come, and before the one being read.
    private var gapBefore: [Bool]
    private var pieceFollowsGap = false
    /// Whether the output hides the GOP before the span's start behind an edit list (regular MP4).
    private var precise = false
    /// Seconds from the first frame written to the span's start (known once the first piece started).
    package private(set) var leadIn: Double?

    private struct PieceState {
        var origin: Double?
        var firstKept: Double?
        var started = false
        /// Seconds the piece's times move back: the first piece's lead-in in a precise output.
        var shift = 0.0
    }

    private struct Held {
        var track: Int
        var data: [UInt8]
        var dts: Int64
        var pts: Int64
        var duration: Int64
        var key: Bool
        var afterGap = false
    }

    /// A writer over `pieces` (in order); throws when the first segment cannot be read.
    package init(pieces: [PlaybackPlan.Piece]) throws {
        self.pieces = pieces
        gapBefore = SpanPlaylist.gapBefore(pieces)
        guard !pieces.isEmpty else { throw FFmpegError(code: onair_averror(2), operation: "stitch an empty span") }
    }

    /// The next bytes of the fragmented MP4 (at least 64 KiB but at the end), or nil at the end.
    package func nextChunk() throws -> [UInt8]? {
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
        writer.precise = true
        while try writer.step(flushEvery: nil) {}
        try writer.end()
    }

    /// Makes the span into a fragmented MP4 at `path` for an HLS playlist: the init section's size
    /// and the fragments (`SpanPlaylist.text`).
    package static func writeFragments(pieces: [PlaybackPlan.Piece], to path: String) throws -> (
        initSize: Int64, fragments: [SpanPlaylist.Fragment], leadIn: Double
    ) {
        let writer = try RecordingSpanWriter(pieces: pieces)
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
            throw FFmpegError(code: onair_averror(13), operation: "create \(path)")
        }
        defer { try? file.close() }
        writer.fragmentFile = file
        while try writer.step(flushEvery: nil) {}
        try writer.end()
        return (writer.initSize, writer.fragments, writer.leadIn ?? 0)
    }

    /// HLS: closes the open fragment at `time` (output seconds) and notes where it lies.
    private func cutFragment(at time: Double, nextAfterGap: Bool) throws {
        try writer?.flush()
        try drainToFile()
        fragments.append(
            SpanPlaylist.Fragment(offset: fragmentOffset, size: written - fragmentOffset, duration: time - cutAt, afterGap: openAfterGap))
        fragmentOffset = written
        cutAt = time
        openAfterGap = nextAfterGap
        openHasSamples = false
    }

    /// HLS: appends what the muxer wrote to the file, the init section first.
    private func drainToFile() throws {
        guard let fragmentFile, let output else { return }
        if !headerSent, let header = output.header {
            headerSent = true
            try fragmentFile.write(contentsOf: header)
            written += Int64(header.count)
            initSize = written
            fragmentOffset = written
        }
        let bytes = output.take()
        try fragmentFile.write(contentsOf: bytes)
        written += Int64(bytes.count)
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
            pieceFollowsGap = gapBefore.first ?? false
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
            if leadIn == nil {
                leadIn = max(0, piece.from - firstKept)
                if precise { state.shift = leadIn ?? 0 }
            }
            for (buffered, time) in gop where time >= firstKept {
                try emit(buffered, relative: time, firstKept: firstKept + state.shift)
            }
            gop = []
        } else {
            guard relative >= (state.firstKept ?? 0), relative < piece.to - 1e-6 else { return true }
            try emit(packet, relative: relative, firstKept: (state.firstKept ?? 0) + state.shift)
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
            if type == .video, let codec = ["h264": MediaCodec.h264, "hevc": .h265][stream.codecName] {
                trackOf[stream.index] = (tracks.count, .video, 90_000)
                tracks.append(
                    .video(
                        codec, width: stream.width, height: stream.height, frameRate: stream.averageFrameRate ?? 0,
                        extradata: stream.extradata))
            } else if type == .audio, stream.codecName == "aac", stream.sampleRate > 0 {
                trackOf[stream.index] = (tracks.count, .audio, Int32(stream.sampleRate))
                tracks.append(.audio(sampleRate: stream.sampleRate, channels: stream.channels, extradata: stream.extradata))
            }
        }
        guard writer == nil else { return }
        guard !tracks.isEmpty else {
            throw FFmpegError(code: onair_averror_invaliddata(), operation: "find H.264, H.265 or AAC in \(pieces[0].path)")
        }
        if let filePath {
            // Negative times kept (the mov muxer's edit list hides them), not shifted to zero.
            writer = try ContainerWriter(
                destination: filePath, format: "mp4", tracks: tracks, options: ["movflags": "+faststart", "use_editlist": "1"])
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
        let afterGap = pieceFollowsGap && mapped.type == .video && packet.isKeyframe
        if afterGap { pieceFollowsGap = false }
        heldBack[mapped.track] = Held(
            track: mapped.track, data: packet.data, dts: dts, pts: max(pts, dts), duration: duration, key: packet.isKeyframe,
            afterGap: afterGap)
        let end = Int64((Double(dts + duration) / scale * 90_000).rounded())
        outputEnd[mapped.type] = max(outputEnd[mapped.type] ?? 0, end)
    }

    private func write(_ held: Held) throws {
        guard let writer else { return }
        let mapped = trackOf.values.first { $0.track == held.track }
        let scale = Int32(mapped?.scale ?? 90_000)
        if fragmentFile != nil, held.key, mapped?.type == .video {
            let time = Double(held.dts) / Double(scale)
            if openHasSamples && (held.afterGap || time - cutAt >= SpanPlaylist.fragmentDuration - 1e-6) {
                try cutFragment(at: time, nextAfterGap: held.afterGap)
            }
        }
        openHasSamples = true
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
        if !gapBefore.isEmpty { gapBefore.removeFirst() }
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
        if fragmentFile != nil, openHasSamples {
            try cutFragment(at: Double(outputEnd[.video] ?? outputEnd[.audio] ?? 0) / 90_000, nextAfterGap: false)
        }
        try writer?.finish()
        try drainToFile()
    }
}
#endif
