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
///
/// Low-Latency HLS (`partDuration` and a `LowLatencyHLSFeed`): a fragment is closed before the
/// packet that would make it longer than `partDuration` (or before a segment's keyframe), stored as
/// the part `part_N_P.m4s` (part P of segment N) and published in a `LowLatencyHLSPlaylist`; the
/// segment is its parts' bytes, so a part and the segment's slice of it are byte-identical.
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
    /// Files of segments (each with its parts) that left the window, deleted one window later (a
    /// player may still fetch them).
    private var leaving: [[String]] = []
    /// Low-Latency HLS: the part duration, the playlist, where it is published and what dates it.
    private let partDuration: Double?
    private var lowLatency: LowLatencyHLSPlaylist?
    private let feed: LowLatencyHLSFeed?
    private let programDate: @Sendable () -> Date
    /// The current part's start (seconds on the muxer's time line), whether it starts with a
    /// keyframe, and how many parts the current segment has; the wall-clock time at `origin`.
    private var partStart: Double?
    private var partIndependent = false
    private var partsInSegment = 0
    private var originDate: Date?

    /// A writer of `playlist` (its directory is created) for `streams`, cutting segments of at
    /// least `segmentDuration` seconds at keyframes and listing the last `windowSize` (0: all).
    /// With `partDuration`, Low-Latency HLS: parts of at most that long (where packets allow),
    /// published to `feed`, segments dated by `programDate` at the first keyframe.
    package init(
        playlist: String, streams: Set<MediaType>, segmentDuration: Double, windowSize: Int, segmentsPerMuxer: Int = 900,
        partDuration: Double? = nil, feed: LowLatencyHLSFeed? = nil, programDate: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        guard segmentDuration > 0, segmentDuration <= 3600 else {
            throw SettingsError(field: "hlsSegmentDuration", value: "\(segmentDuration)", allowed: "0 < S ≤ 3600")
        }
        if let partDuration, !(partDuration >= 0.05 && partDuration <= segmentDuration) {
            throw SettingsError(field: "hlsPartDuration", value: "\(partDuration)", allowed: "0.05 ≤ P ≤ the segment duration")
        }
        self.partDuration = partDuration
        self.feed = feed
        self.programDate = programDate
        lowLatency = partDuration.map {
            LowLatencyHLSPlaylist(targetDuration: segmentDuration, partTarget: $0, windowSize: windowSize)
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
            originDate = programDate()
        }
        guard let origin, packet.dts.seconds >= origin else { return }
        let scale: Int32 = packet.mediaType == .video ? 90_000 : max(1, packet.dts.timescale)
        let retimed = packet.retimed(scale: scale, origin: origin)
        if let previous = holdBack.next(retimed) { try mux(previous) }
        let paced = packet.mediaType == .video || !expected.contains(.video)
        guard paced else { return }
        let startsSegment = packet.mediaType == .video ? packet.isKeyframe : true
        let time = retimed.dts.seconds
        // Low-Latency HLS: a packet that would make the part longer than asked starts the next one.
        let partFull =
            partDuration.flatMap { limit in partStart.map { time + max(0, retimed.duration.seconds) - $0 > limit + 0.0005 } }
            ?? false
        if startsSegment, let segmentStart, time - segmentStart >= playlist.targetDuration - 0.001 {
            try closeFragment(until: time)
            try closeSegment(until: time)
            if segmentsInMuxer >= segmentsPerMuxer { try replaceMuxer() }
        } else if partFull {
            try closeFragment(until: time)
        }
        if segmentStart == nil && startsSegment { segmentStart = time }
        if partStart == nil {
            partStart = time
            partIndependent = packet.mediaType == .video && packet.isKeyframe
        }
    }

    /// Writes what is held, closes the last segment and lists the end of the stream.
    package func finish() throws {
        guard segmentStart != nil else { return try container.finish() }
        for last in holdBack.drain() { try mux(last) }
        try closeFragment(until: end)
        try closeSegment(until: end)
        playlist.ended = true
        lowLatency?.ended = true
        try storePlaylist()
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

    /// Ends the fragment the muxer holds, its samples ending at `until`: its `moof`+`mdat` join
    /// the segment and, in Low-Latency HLS, are published as the segment's next part.
    private func closeFragment(until: Double) throws {
        try container.flush()
        let fragment = output.take()
        segmentBytes += fragment
        guard lowLatency != nil, let map, let start = partStart, !fragment.isEmpty else { return }
        let name = LowLatencyHLSPlaylist.partName(segment: nextSegment, part: partsInSegment)
        try store(fragment, as: name)
        partsInSegment += 1
        partStart = nil
        let date = segmentStart.flatMap { start in originDate.map { $0.addingTimeInterval(start) } }
        let next = LowLatencyHLSPlaylist.partName(segment: nextSegment, part: partsInSegment)
        lowLatency?.append(
            part: .init(uri: name, duration: max(0.001, until - start), independent: partIndependent), map: map,
            discontinuity: discontinuity, programDate: date, next: next)
        if let lowLatency { feed?.publish(lowLatency) }
    }

    /// Writes the playlist file (the full Low-Latency one when parts are cut).
    private func storePlaylist() throws {
        try store(Array((lowLatency?.text() ?? playlist.text).utf8), as: (playlistPath as NSString).lastPathComponent)
        if let lowLatency { feed?.publish(lowLatency) }
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
        var gone = playlist.append(.init(uri: name, duration: max(0.001, until - start), map: map, discontinuity: discontinuity))
            .map { [$0.uri] }
        if lowLatency != nil {
            // Its parts go with it (the segment's own window is the Low-Latency one).
            gone =
                lowLatency?.finishSegment(
                    uri: name, duration: max(0.001, until - start), next: LowLatencyHLSPlaylist.partName(segment: nextSegment, part: 0)
                ).map { [$0.uri ?? ""] + $0.parts.map(\.uri) } ?? []
        }
        partsInSegment = 0
        discontinuity = false
        try storePlaylist()
        // Files of segments one window past leaving the playlist are removed.
        leaving += gone
        let keep = max(lowLatency?.windowSize ?? playlist.windowSize, 1)
        while leaving.count > keep {
            for file in leaving.removeFirst() {
                try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(file))
            }
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
        try closeFragment(until: end)
        try closeSegment(until: end)
        try container.finish()
        output = try MemoryOutput()
        container = Self.container(output: output, streams: expected, continuing: false, destination: destination)
        described = []
        segmentsInMuxer = 0
        origin = nil
        segmentStart = nil
        partStart = nil
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
