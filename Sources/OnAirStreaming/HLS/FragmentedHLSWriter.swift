#if os(Linux)
import Foundation
import OnAirCore

#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
import OnAirLive

/// Live HLS in fragmented MP4 (CMAF) segments: an init section (`init.mp4`, the `EXT-X-MAP`), then
/// `segment_N.m4s` files of `moof`+`mdat` fragments, each starting at a keyframe at least
/// `segmentDuration` after the one before, and the media playlist (`HLSMediaPlaylist`) rewritten
/// after each. H.265 over HLS must be fMP4 (Apple's rule); the samples are `hvc1` (parameter sets
/// in the init section's `hvcC`), as for H.264 `avc1`.
///
/// One libavformat MP4 muxer writes into memory (`MemoryOutput`), fragments cut by the writer
/// (`frag_custom`): a segment is what the muxer gives between two cuts. Packets are held back by
/// one per track (`SampleHoldBack`) so every sample lasts exactly until the next. A segment is
/// closed by `closeFragment()` then `closeSegment()`; Low-Latency HLS closes fragments more often
/// (its parts) and keeps the segment as their concatenation, with the same two steps.
///
/// After `segmentsPerMuxer` segments a fresh muxer continues the same time line behind the same
/// init section (`frag_discont`; checked byte for byte), as `ServeMuxSink` does: libavformat's MP4
/// muxer keeps an index entry for every fragment. A changed video format description (a restarted
/// encode) starts a new init section (`init_1.mp4`, …) after an `EXT-X-DISCONTINUITY`.
package final class FragmentedHLSWriter: PacketSink {
    /// The playlist's path.
    package var destination: String { playlistPath }
    private let directory: String
    private let playlistPath: String
    private let expected: Set<MediaType>
    private let segmentsPerMuxer: Int
    private var playlist: HLSMediaPlaylist
    private var output: MemoryOutput
    private var container: ContainerSink
    private var holdBack = SampleHoldBack()
    private var descriptions: [MediaType: FormatDescription] = [:]
    private var described: Set<MediaType> = []
    /// The first keyframe's decode time (seconds): the muxer's times start at 0 there.
    private var origin: Double?
    /// The current segment's start and the latest sample's end, seconds on the muxer's time line.
    private var segmentStart: Double?
    private var end = 0.0
    private var segmentBytes: [UInt8] = []
    private var segmentsInMuxer = 0
    private var nextSegment = 0
    /// The init section's name, once written, and the bytes a replacement muxer must write again.
    private var map: String?
    private var maps = 0
    private var expectedHeader: [UInt8]?
    private var discontinuity = false
    /// Files of segments that left the window, deleted one window later (a player may still fetch them).
    private var leaving: [String] = []

    /// A writer of `playlist` (its directory is created) for `streams`, cutting segments of at
    /// least `segmentDuration` seconds at keyframes and listing the last `windowSize` (0: all).
    package init(
        playlist: String, streams: Set<MediaType>, segmentDuration: Double, windowSize: Int, segmentsPerMuxer: Int = 900
    ) throws {
        guard segmentDuration > 0, segmentDuration <= 3600 else {
            throw SettingsError(field: "hlsSegmentDuration", value: "\(segmentDuration)", allowed: "0 < S ≤ 3600")
        }
        playlistPath = playlist
        directory = (playlist as NSString).deletingLastPathComponent
        expected = streams
        self.segmentsPerMuxer = max(1, segmentsPerMuxer)
        self.playlist = HLSMediaPlaylist(targetDuration: segmentDuration, windowSize: windowSize)
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw SinkError.writeFailed(destination: playlist, reason: "cannot create \(directory): \(error.localizedDescription)")
            }
        }
        output = try MemoryOutput()
        container = Self.container(output: output, streams: streams, continuing: false, destination: playlist)
    }

    private static func container(output: MemoryOutput, streams: Set<MediaType>, continuing: Bool, destination: String) -> ContainerSink {
        // Times start at each track's first packet (the writer shifts them), not at libavformat's choice.
        ContainerSink(
            destination: destination, format: "mp4", streams: streams,
            options: [
                "movflags": "+empty_moov+default_base_moof+frag_custom" + (continuing ? "+frag_discont" : ""),
                "avoid_negative_ts": "disabled",
            ], interleaved: false, output: output)
    }

    /// Muxes one packet, cutting a segment before a keyframe once the segment is long enough.
    package func write(_ packet: EncodedPacket) throws {
        if let description = packet.formatDescription {
            if packet.mediaType == .video, origin != nil, let previous = descriptions[.video], previous != description {
                try restart()
            }
            descriptions[packet.mediaType] = description
        }
        if origin == nil {
            guard expected.allSatisfy({ descriptions[$0] != nil }) else { return }
            if expected.contains(.video) && !(packet.mediaType == .video && packet.isKeyframe) { return }
            origin = packet.dts.seconds
        }
        guard let origin, packet.dts.seconds >= origin else { return }
        let scale: Int32 = packet.mediaType == .video ? 90_000 : max(1, packet.dts.timescale)
        let retimed = packet.retimed(scale: scale, origin: origin)
        if let previous = holdBack.next(retimed) { try mux(previous) }
        let startsSegment = packet.mediaType == .video ? packet.isKeyframe : !expected.contains(.video)
        guard startsSegment else { return }
        let time = retimed.dts.seconds
        if let segmentStart, time - segmentStart >= playlist.targetDuration - 0.001 {
            try closeFragment()
            try closeSegment(until: time)
            if segmentsInMuxer >= segmentsPerMuxer { try replaceMuxer() }
        }
        if segmentStart == nil { segmentStart = time }
    }

    /// Writes what is held, closes the last segment and lists the end of the stream.
    package func finish() throws {
        guard segmentStart != nil else { return try container.finish() }
        for last in holdBack.drain() { try mux(last) }
        try closeFragment()
        try closeSegment(until: end)
        playlist.ended = true
        try store(Array(playlist.text.utf8), as: (playlistPath as NSString).lastPathComponent)
        try container.finish()
    }

    /// Writes one packet to the muxer, the init section once the muxer has written it.
    private func mux(_ packet: EncodedPacket) throws {
        var packet = packet
        if !described.contains(packet.mediaType) {
            packet.formatDescription = descriptions[packet.mediaType]
            described.insert(packet.mediaType)
        }
        try container.write(packet)
        end = max(end, (packet.dts + packet.duration).seconds)
        guard let header = output.header, map == nil || expectedHeader != nil else { return }
        if let expectedHeader {
            guard header == expectedHeader else {
                throw SinkError.writeFailed(destination: destination, reason: "a fresh MP4 muxer wrote a different init section")
            }
            self.expectedHeader = nil
        } else {
            let name = maps == 0 ? "init.mp4" : "init_\(maps).mp4"
            try store(header, as: name)
            map = name
            maps += 1
        }
    }

    /// Ends the fragment the muxer holds: its `moof`+`mdat` join the segment.
    private func closeFragment() throws {
        try container.flush()
        segmentBytes += output.take()
    }

    /// Writes the segment (its fragments), lists it ending at `until` and rewrites the playlist.
    private func closeSegment(until: Double) throws {
        guard let start = segmentStart, let map, !segmentBytes.isEmpty else { return }
        let name = "segment_\(nextSegment).m4s"
        try store(segmentBytes, as: name)
        nextSegment += 1
        segmentsInMuxer += 1
        segmentBytes = []
        segmentStart = nil
        let gone = playlist.append(.init(uri: name, duration: max(0.001, until - start), map: map, discontinuity: discontinuity))
        discontinuity = false
        try store(Array(playlist.text.utf8), as: (playlistPath as NSString).lastPathComponent)
        // Files of segments one window past leaving the playlist are removed.
        leaving += gone.map(\.uri)
        let keep = max(playlist.windowSize, 1)
        while leaving.count > keep {
            try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(leaving.removeFirst()))
        }
    }

    /// A fresh muxer continuing the time line behind the same init section (see the type's comment).
    private func replaceMuxer() throws {
        try container.finish()  // its trailer goes to the old output, which nobody reads
        expectedHeader = output.header
        output = try MemoryOutput()
        container = Self.container(output: output, streams: expected, continuing: true, destination: destination)
        described = []
        segmentsInMuxer = 0
    }

    /// A restarted encode: the segment so far is closed, and a new muxer (new init section, times
    /// from 0 again) starts at the new encode's first keyframe after a discontinuity.
    private func restart() throws {
        for last in holdBack.drain() { try mux(last) }
        try closeFragment()
        try closeSegment(until: end)
        try container.finish()
        output = try MemoryOutput()
        container = Self.container(output: output, streams: expected, continuing: false, destination: destination)
        described = []
        segmentsInMuxer = 0
        origin = nil
        segmentStart = nil
        end = 0
        map = nil
        expectedHeader = nil
        discontinuity = true
    }

    /// Writes `bytes` to `name` in the directory, atomically (a reader sees the old file or the new one).
    private func store(_ bytes: [UInt8], as name: String) throws {
        let path = (directory as NSString).appendingPathComponent(name)
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw SinkError.writeFailed(destination: path, reason: error.localizedDescription)
        }
    }
}
#endif
#endif
