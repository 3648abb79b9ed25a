#if os(Linux)
import CFFmpeg
import Foundation
import OnAirCore

/// A recording that lasts: segments of `RecordingSettings.segmentDuration` cut on keyframes, back
/// to back, each a complete file that plays alone (fragmented MP4 or MPEG-TS), named from its
/// wall-clock start (`_2`… after a name the wall clock gives again: never a clobber), its start on
/// the anchored time line and its duration noted in the recording's `SegmentJournal`; every part
/// (`partDuration`) is flushed and synced to the disk; old segments go by the retention policy,
/// checked before each segment and every 10 s (a timer of its own), with ages no clock step moves.
///
/// MP4 segments share one timeline: times start at 0 at the recording's first keyframe and each
/// segment's first fragment carries its own start (`frag_discont`), so segment N+1 begins exactly
/// where segment N ends; `SegmentStartBox` after the `moov` ties that time to the wall clock.
/// MPEG-TS segments keep the capture's timestamps. Packets are held back by one per stream in
/// MP4, so each sample's duration is exactly the gap to the next (see `ServeMuxSink`).
/// Unchecked Sendable: the muxer (an AVFormatContext) is used on the sink's thread; figures, path and reload under `sweepLock`
package final class SegmentedRecorder: RecordingFiguresSink, @unchecked Sendable {
    /// The template, for messages.
    package var destination: String { settings.template.text }
    /// The settings in force (changed by `reload` at the next packet; read on the writing thread).
    package private(set) var settings: RecordingSettings
    /// Settings a reload gave, taken up at the next packet (under `sweepLock`).
    private var pending: RecordingSettings?
    private let expected: Set<MediaType>
    private var schedule: SegmentSchedule
    /// Media time to the wall clock, for names.
    private var anchor = WallClockAnchor()
    /// Media time to the anchored time line, for starts in the journal and the start box.
    private var lineAnchor = WallClockAnchor()
    private let clock: AnchoredClock
    private let journal: SegmentJournal
    /// This recorder's id in the journal: runs are joined only within one.
    private let run = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    private let log: @Sendable (String) -> Void
    private let sweeper: RetentionSweeper
    /// Sweeps every `sweepInterval` on a timer, packets or not (a stalled source, a full disk).
    private var sweepTimer: DispatchSourceTimer?
    private let sweepLock = NSLock()
    /// The segment being written, for the timer's sweeps (under `sweepLock`).
    private var writingPath: String?
    /// Bytes written and segments deleted (under `sweepLock`: the timer's sweeps count too).
    private var figures = RecordingFigures()
    private var descriptions: [MediaType: FormatDescription] = [:]
    /// A stream's parameters changed while a segment is written: cut at the next keyframe.
    private var parametersChanged = false
    private var heldBack: [MediaType: EncodedPacket] = [:]
    private var origin: Double?
    private var current: Segment?
    /// The end of the latest packet written (media seconds), for the last segment's duration.
    private var lastEnd = 0.0
    /// Seconds between retention checks while packets flow.
    package static let sweepInterval = 10.0
    /// The full disk that paused the recording, while it waits for room (nil: recording).
    private var paused: SinkError?
    /// The most bytes one part took so far: the room a resumed recording needs at least.
    private var largestPart: Int64 = 0
    /// The segment's media duration at the last part's flush.
    private var syncedDuration = 0.0
    /// The segment's size at the last part's flush.
    private var sizeAtLastPart: Int64 = 0
    private let freeBytes: @Sendable (String) -> Int64?
    /// Free space a resumed recording wants besides a part's worth.
    package static let resumeMargin: Int64 = 1 << 20

    private struct Segment {
        let file: SegmentFile
        let output: MemoryOutput
        let container: ContainerSink
        let start: Double
        /// Its start on the anchored time line.
        let lineStart: Date
        var undescribed: Set<MediaType>
        var headerWritten = false
        var boxWritten = false
    }

    /// A recorder of `streams` with `settings` on `clock` (names from its wall clock, starts and
    /// ages on its anchored time line), `freeBytes` the free-space reading, `log` hears deletions,
    /// completed segments, retention's waits for the clock and hook failures.
    package init(
        settings: RecordingSettings, streams: Set<MediaType>, clock: AnchoredClock = AnchoredClock(),
        freeBytes: @escaping @Sendable (String) -> Int64? = RetentionSweeper.freeBytes(at:),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        try settings.validate()
        self.settings = settings
        self.started = settings
        self.expected = streams
        self.clock = clock
        self.journal = settings.index.journal
        self.log = log
        self.freeBytes = freeBytes
        schedule = SegmentSchedule(
            segmentDuration: settings.segmentDuration.inSeconds, partDuration: settings.partDuration.inSeconds,
            hasVideo: streams.contains(.video))
        // The sweeper and its timer exist even without retention (a pass then does nothing), so
        // that a reload can turn retention on.
        sweeper = RetentionSweeper(index: settings.index, policy: settings.retention, clock: clock, freeBytes: freeBytes, log: log)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + Self.sweepInterval, repeating: Self.sweepInterval)
        timer.setEventHandler { [weak self] in self?.sweep(keepingCurrent: true) }
        timer.resume()
        sweepTimer = timer
    }

    /// A recorder whose wall clock is `now` (the monotonic clock the system's), for tests.
    package convenience init(
        settings: RecordingSettings, streams: Set<MediaType>, now: @escaping @Sendable () -> Date,
        freeBytes: @escaping @Sendable (String) -> Int64? = RetentionSweeper.freeBytes(at:),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        try self.init(
            settings: settings, streams: streams, clock: AnchoredClock(wall: now, synchronized: { true }), freeBytes: freeBytes, log: log)
    }

    deinit {
        sweepTimer?.cancel()
    }

    /// Writes to the journal; a failure (a full disk) costs the segment its place on the anchored
    /// line (its name's time is read instead), not the recording.
    private func noting(_ entry: () throws -> Void) {
        do {
            try entry()
        } catch {
            log("recording: cannot note the segment in \(journal.path): \(error)")
        }
    }

    /// One retention pass now, as the timer makes them (the segment being written kept).
    package func sweepRetention() { sweep(keepingCurrent: true) }

    /// One retention pass; the segment being written is kept (`keepingCurrent`) or there is none.
    private func sweep(keepingCurrent: Bool) {
        sweepLock.lock()
        defer { sweepLock.unlock() }
        figures.segmentsDeleted += sweeper.sweep(writing: keepingCurrent ? writingPath : nil).count
    }

    /// What a reload may change while recording: retention (from the next pass; one runs at once
    /// on the timer's queue), the segment and part durations (the segment under way is cut by the
    /// new length) and the segment-complete command. The template, path name and format decide
    /// where and how files are written: a change of those is refused (false), nothing applied.
    @discardableResult
    package func reload(_ fresh: RecordingSettings) -> Bool {
        guard (try? fresh.validate()) != nil, fresh.template == started.template,
            fresh.pathName == started.pathName, fresh.format == started.format
        else { return false }
        sweepLock.withLock { pending = fresh }
        sweeper.setPolicy(fresh.retention)
        // The timer fires now, then every `sweepInterval` again.
        sweepTimer?.schedule(deadline: .now(), repeating: Self.sweepInterval)
        return true
    }

    /// The settings at the start: their template, path name and format stay for the whole
    /// recording (a reload may not change them), so `reload` reads them from any thread.
    private let started: RecordingSettings

    /// Bytes written to the segments and segments the retention deleted, since the start.
    package var recordingFigures: RecordingFigures { sweepLock.withLock { figures } }

    /// Writes `bytes` to `file` and counts them.
    private func write(_ bytes: [UInt8], to file: SegmentFile) throws {
        try file.write(bytes)
        sweepLock.withLock { figures.bytesWritten += Int64(bytes.count) }
    }

    private func setWritingPath(_ path: String?) {
        sweepLock.lock()
        writingPath = path
        sweepLock.unlock()
    }

    /// The path of the segment being written, if any.
    package var currentPath: String? { current?.file.path }

    /// Takes one packet: starts, cuts, appends, flushes a part, sweeps as due. A full disk does not
    /// end the recording: it pauses (the segment being written keeps its synced parts, logged) and
    /// resumes with a new segment at the first keyframe once retention or anyone else has made
    /// room for more than a part; `finish` reports the full disk if it never came back.
    package func write(_ packet: EncodedPacket) throws {
        if let fresh = sweepLock.withLock({ () -> RecordingSettings? in
            defer { pending = nil }
            return pending
        }) {
            settings = fresh
            schedule.segmentDuration = fresh.segmentDuration.inSeconds
            schedule.partDuration = fresh.partDuration.inSeconds
        }
        if let description = packet.formatDescription {
            // A restarted encode (a reload's new size or codec settings): a new segment starts at
            // its first keyframe, so each file has one set of parameters.
            if current != nil, let previous = descriptions[packet.mediaType], previous != description { parametersChanged = true }
            descriptions[packet.mediaType] = description
        }
        guard expected.contains(packet.mediaType) else { return }
        if let paused {
            guard canResume(at: packet) else { return }
            self.paused = nil
            log("recording: resumed after a full disk (\(paused))")
        }
        do {
            try record(packet)
        } catch let failure as SegmentFileError where failure.isNoSpace {
            pause(failure.error)
        } catch let failure as SegmentFileError {
            throw failure.error
        }
    }

    /// The disk is full: leaves the segment being written as its last sync left it and waits.
    private func pause(_ error: SinkError) {
        paused = error
        if let segment = current {
            setWritingPath(nil)
            try? segment.file.close()
            sweeper.finished(segment.file.path)
            noting { try journal.finished(segment.file.path, duration: syncedDuration) }
            log("recording: \(segment.file.path) ends early: \(error); waiting for room on the disk")
        }
        current = nil
        heldBack = [:]
        schedule = SegmentSchedule(
            segmentDuration: settings.segmentDuration.inSeconds, partDuration: settings.partDuration.inSeconds,
            hasVideo: expected.contains(.video))
    }

    /// Whether a paused recording starts again at `packet`: a keyframe (or any packet without
    /// video), once retention has run and the recording's file system has room for more than
    /// the largest part so far plus a margin.
    private func canResume(at packet: EncodedPacket) -> Bool {
        if expected.contains(.video) && !(packet.mediaType == .video && packet.isKeyframe) { return false }
        sweep(keepingCurrent: false)
        guard let free = freeBytes(settings.template.root(pathName: settings.pathName)) else { return false }
        return free > largestPart + Self.resumeMargin
    }

    private func record(_ packet: EncodedPacket) throws {
        // The first segment starts at the first keyframe even before audio has described itself
        // (AAC comes out an encoder delay later): the muxer waits for it with the packets.
        let time = packet.dts.seconds
        if settings.format == .fmp4, let origin, time < origin { return }
        let decision = schedule.decide(
            isVideo: packet.mediaType == .video, isKeyframe: packet.isKeyframe, time: time, cutNow: parametersChanged)
        if decision != .append { parametersChanged = false }
        switch decision {
        case .skip: return
        case .start:
            // One timeline for the whole recording, across a pause too.
            if settings.format == .fmp4, origin == nil { origin = time }
            try open(at: time)
        case .cut:
            try closeSegment(endingAt: time, next: packet)
            try open(at: time)
        case .append: break
        }
        try add(packet)
        lastEnd = max(lastEnd, time + packet.duration.seconds)
        if schedule.partDue(at: time) {
            try flushPart()
            if let segment = current {
                syncedDuration = max(0, time - segment.start)
                journal.progressed(segment.file.path, duration: syncedDuration)
            }
        }
    }

    /// Closes the segment being written (what is held back goes in, then the trailer).
    package func finish() throws {
        sweepTimer?.cancel()
        sweepTimer = nil
        if let paused { throw paused }
        guard current != nil else { return }
        do {
            try closeSegment(endingAt: lastEnd, next: nil)
        } catch let failure as SegmentFileError {
            throw failure.error
        }
    }

    private func open(at time: Double) throws {
        let wall = anchor.wallTime(media: time, now: clock.wall())
        let lineStart = lineAnchor.wallTime(media: time, now: clock.now())
        sweep(keepingCurrent: false)  // before each new segment (the previous one is complete)
        let base = settings.template.path(pathName: settings.pathName, start: wall)
        let fileExtension = "." + settings.format.fileExtension
        var attempt = 1
        // The wall clock stepped back and gave a name again: the next free suffix, never a clobber.
        while access(base + RecordPathTemplate.duplicateSuffix(attempt) + fileExtension, F_OK) == 0 { attempt += 1 }
        let path = base + RecordPathTemplate.duplicateSuffix(attempt) + fileExtension
        if attempt > 1 { log("recording: \(base + fileExtension) exists (the wall clock went back): writing \(path)") }
        let file = try SegmentFile(path: path)
        noting { try journal.started(path, start: lineStart, opened: wall, run: run, epoch: clock.steps) }
        syncedDuration = 0
        sizeAtLastPart = 0
        setWritingPath(path)
        let output = try MemoryOutput()
        let options: [String: String] =
            settings.format == .fmp4
            ? ["movflags": "+empty_moov+default_base_moof+frag_custom+frag_discont", "avoid_negative_ts": "disabled"]
            : ["pes_payload_size": "0", "omit_video_pes_length": "0"]
        let container = ContainerSink(
            destination: path, format: settings.format == .fmp4 ? "mp4" : "mpegts", streams: expected, options: options,
            interleaved: false, output: output)
        current = Segment(
            file: file, output: output, container: container, start: time, lineStart: lineStart, undescribed: expected)
    }

    /// Adds a packet to the current segment (MP4: the one held back before it of its stream).
    private func add(_ packet: EncodedPacket) throws {
        guard settings.format == .fmp4, let origin else {
            try mux(packet)
            return
        }
        let scale: Int32 = packet.mediaType == .video ? 90_000 : max(1, packet.dts.timescale)
        let retimed = packet.retimed(scale: scale, origin: origin)
        let previous = heldBack[packet.mediaType]
        heldBack[packet.mediaType] = retimed
        guard var previous else { return }
        previous.duration = MediaTime(value: max(1, retimed.dts.value - previous.dts.value), timescale: scale)
        try mux(previous)
    }

    private func mux(_ packet: EncodedPacket) throws {
        guard var segment = current else { return }
        var packet = packet
        if segment.undescribed.contains(packet.mediaType) {
            packet.formatDescription = descriptions[packet.mediaType]
            segment.undescribed.remove(packet.mediaType)
            current = segment
        }
        try segment.container.write(packet)
        if settings.format == .fmp4, !segment.boxWritten, segment.output.header != nil {
            // Right after the header (fragments wait in the muxer until a flush), and through the
            // muxer's own output, so the positions it records (mfra) count the box.
            let box = SegmentStartBox(wallClock: segment.lineStart, mediaSeconds: segment.start - (origin ?? 0)).bytes
            box.withUnsafeBufferPointer { avio_write(segment.output.context, $0.baseAddress, Int32($0.count)) }
            segment.boxWritten = true
            current = segment
        }
        if !segment.headerWritten, segment.output.header != nil, settings.format != .fmp4 || segment.boxWritten {
            // The header on the disk at once: a process killed before the first part leaves a
            // segment that opens (with nothing in it yet), not a file no player can read.
            avio_flush(segment.output.context)
            try drain()
            try current?.file.sync()
        }
    }

    /// Closes the fragment (MP4) or the pending PES (TS), writes what the muxer made and syncs it.
    private func flushPart() throws {
        guard let segment = current else { return }
        try segment.container.flush()
        try drain()
        try segment.file.sync()
        largestPart = max(largestPart, segment.file.size - sizeAtLastPart)
        sizeAtLastPart = segment.file.size
    }

    /// Moves the muxer's bytes to the file: the header first (MP4: with the start box after it).
    private func drain() throws {
        guard var segment = current else { return }
        if !segment.headerWritten, let header = segment.output.header {
            try write(header, to: segment.file)
            segment.headerWritten = true
            current = segment
        }
        guard segment.headerWritten else { return }
        let bytes = segment.output.take()
        if !bytes.isEmpty { try write(bytes, to: segment.file) }
    }

    private func closeSegment(endingAt end: Double, next: EncodedPacket?) throws {
        guard let segment = current else { return }
        if settings.format == .fmp4, let origin {
            // The held-back video frame ends where the next segment's keyframe starts.
            for type in [MediaType.video, .audio] {
                guard var last = heldBack.removeValue(forKey: type) else { continue }
                if let next, next.mediaType == type {
                    let scale = last.dts.timescale
                    let nextDTS = next.retimed(scale: scale, origin: origin).dts.value
                    last.duration = MediaTime(value: max(1, nextDTS - last.dts.value), timescale: scale)
                }
                try mux(last)
            }
        }
        defer { current = nil }
        try segment.container.finish()
        try drain()
        try segment.file.close()
        let duration = max(0, end - segment.start)
        sweeper.finished(segment.file.path)
        noting { try journal.finished(segment.file.path, duration: duration) }
        log("recording: wrote \(segment.file.path) (\(String(format: "%.3f", duration)) s, \(segment.file.size) bytes)")
        if let command = settings.onSegmentComplete {
            SegmentHook.run(command, path: segment.file.path, duration: duration, pathName: settings.pathName, log: log)
        }
    }

}
#endif
