#if os(Linux)
import Foundation
import OnAirCore

/// The fan-out hub of `onair serve`: one stream per container, fed by one muxer each from the one
/// encode; viewers of any transport (HTTP, SRT) attach to a stream with their own bounded queue.
///
/// Admission is counted here, so `maxViewers` holds across transports.
package final class ServeHub: Sendable {
    /// The limits each viewer gets.
    package typealias Limits = ServeConfiguration.Limits

    /// The limits in force (`setLimits` changes them for viewers from then on).
    public var limits: Limits { state.withLock { $0.limits } }
    private struct State {
        var limits: Limits
        var viewers: [Int: ServeViewer] = [:]
        var nextID = 1
        var totals = Totals()
        var closed = false
        var observer: (@Sendable (ViewerEvent) -> Void)?
        /// Extra figures per viewer from its transport (SRT statistics), by viewer id.
        var transportFigures: [Int: @Sendable () -> (rttMs: Double, lost: Int, dropped: Int, sendBufferMs: Double)] = [:]
        /// Viewers served outside the hub (WebRTC), counted against `maxViewers` too.
        var externalViewers: (@Sendable () -> Int)?
        /// Whether a credential still admits (the access policy's judge; nil: every one does).
        var stillAdmits: (@Sendable (ServeCredential) -> Bool)?
    }

    private let state: Locked<State>
    /// The streams by rendition (the main encode's name, `ServeHub.main`, and each further encode's) and format.
    private let streams: [String: [ServeFormat: ServeStream]]
    /// Gives back what departed viewers freed (glibc keeps it otherwise; see `ServeMemoryRelease`).
    package let memoryRelease = ServeMemoryRelease()
    /// Seconds of a monotonic clock: when chunks are published, how long a viewer has been behind,
    /// its age. Injected, so a test can step it (a viewer cut at its timeout without waiting).
    package let clock: @Sendable () -> Double

    /// The system's monotonic clock in seconds, the hub's unless another is given.
    package static let uptime: @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }

    /// The main encode's name: the path prefix of its streams (`/live.ts`, `rtsp://…/live`).
    package static let main = "live"

    /// A hub for the given formats, of the main encode and of each further encode in `renditions`
    /// (their names, the path prefixes of their streams: `sub` serves `/sub.ts`), on `clock`.
    package init(
        formats: Set<ServeFormat>, renditions: [String] = [], limits: Limits = Limits(),
        clock: @escaping @Sendable () -> Double = ServeHub.uptime
    ) {
        state = Locked(State(limits: limits))
        self.clock = clock
        var streams: [String: [ServeFormat: ServeStream]] = [:]
        for name in [Self.main] + renditions {
            for format in formats { streams[name, default: [:]][format] = ServeStream(format: format, clock: clock) }
        }
        self.streams = streams
    }

    /// Whether the hub produces `format` (of the rendition `rendition`).
    package func serves(_ format: ServeFormat, rendition: String = ServeHub.main) -> Bool { streams[rendition]?[format] != nil }

    /// The further encodes' names (every rendition but the main one).
    package var renditions: [String] { streams.keys.filter { $0 != Self.main }.sorted() }

    /// Sets how many viewers a face outside the hub serves now (WebRTC), so `maxViewers` counts them;
    /// `count` must not call back into the hub.
    public func setExternalViewers(_ count: @escaping @Sendable () -> Int) {
        state.withLock { $0.externalViewers = count }
    }

    /// Admits a viewer of `format` (throws `ServeRefusal` when full or stopping), remembering what
    /// admitted it; the transport reads from it and calls `close()` when done.
    package func openViewer(
        format: ServeFormat, rendition: String = ServeHub.main, transport: String, peer: String,
        credential: ServeCredential = .anyone
    ) throws -> ServeViewer {
        guard let stream = streams[rendition]?[format] else { throw ServeRefusal.stopping }
        let (viewer, observer) = try state.withLock { state in
            guard !state.closed else { throw ServeRefusal.stopping }
            // Under the lock: a reload puts its credentials in force before `cutViewers` looks, so a
            // viewer checked here with an old token either is refused or is among those it cuts.
            guard state.stillAdmits?(credential) ?? true else { throw ServeRefusal.credentialWithdrawn }
            guard state.viewers.count + (state.externalViewers?() ?? 0) < state.limits.maxViewers else {
                state.totals.refusedFull += 1
                throw ServeRefusal.full(maximum: state.limits.maxViewers)
            }
            let viewer = ServeViewer(
                id: state.nextID, transport: transport, format: format, peer: peer, credential: credential,
                timeout: state.limits.viewerTimeout.inSeconds, capacityBytes: state.limits.viewerQueueBytes, clock: clock
            ) { [weak self] gone in
                self?.remove(gone, from: stream)
            }
            state.nextID += 1
            state.viewers[viewer.id] = viewer
            state.totals.served += 1
            state.totals.peakViewers = max(state.totals.peakViewers, state.viewers.count)
            return (viewer, state.observer)
        }
        stream.attach(viewer)
        observer?(.joined(id: viewer.id, transport: transport, peer: peer))
        return viewer
    }

    /// Adds transport figures (SRT's RTT, loss, send-buffer delay) to a viewer's statistics.
    package func setTransportFigures(
        for viewer: ServeViewer,
        _ figures: @escaping @Sendable () -> (rttMs: Double, lost: Int, dropped: Int, sendBufferMs: Double)
    ) {
        state.withLock { state in
            if state.viewers[viewer.id] != nil { state.transportFigures[viewer.id] = figures }
        }
    }

    private func remove(_ viewer: ServeViewer, from stream: ServeStream) {
        stream.detach(viewer)
        let figures = viewer.statistics()
        let observer = state.withLock { state in
            state.viewers[viewer.id] = nil
            state.transportFigures[viewer.id] = nil
            if viewer.endReason == .tooSlow { state.totals.cutTooSlow += 1 }
            if viewer.endReason == .credentialWithdrawn { state.totals.cutCredentialWithdrawn += 1 }
            state.totals.skipsOfViewersGone += figures.skips
            state.totals.bytesSentOfViewersGone[viewer.transport, default: 0] += figures.bytesSent
            return state.observer
        }
        observer?(
            .left(
                id: viewer.id, transport: viewer.transport, peer: viewer.peer,
                cut: viewer.cutReason))
        memoryRelease.released()
    }

    /// Changes the most viewers at once and the viewer timeout (a reload): admission follows at
    /// once, viewers already served keep theirs; none is cut for a lower maximum.
    package func setLimits(maxViewers: Int, viewerTimeout: Duration) {
        state.withLock { state in
            state.limits.maxViewers = maxViewers
            state.limits.viewerTimeout = viewerTimeout
        }
    }

    /// Sets the judge of credentials `openViewer` asks at admission (the access policy's `stillAdmits`);
    /// it must not call back into the hub.
    package func setCredentialCheck(_ stillAdmits: @escaping @Sendable (ServeCredential) -> Bool) {
        state.withLock { $0.stillAdmits = stillAdmits }
    }

    /// Cuts every viewer whose credential `stillAdmits` no longer accepts (a reload withdrew its
    /// token or user); the others are untouched. Returns how many were cut: each ends at its next
    /// read, with `credentialWithdrawn` as its reason.
    @discardableResult
    package func cutViewers(stillAdmits: (ServeCredential) -> Bool) -> Int {
        let current = state.withLock { Array($0.viewers.values) }
        return current.filter { !stillAdmits($0.credential) && $0.withdraw() }.count
    }

    /// Hears every viewer that joins or leaves, on the viewer's thread (replaces an earlier observer).
    public func setViewerObserver(_ observer: (@Sendable (ViewerEvent) -> Void)?) {
        state.withLock { $0.observer = observer }
    }

    /// A response that held memory (an HLS file) is done: see `ServeMemoryRelease`.
    func responseFinished() {
        memoryRelease.released()
    }

    /// Sets a stream's container header.
    func setHeader(_ bytes: [UInt8], for format: ServeFormat, rendition: String = ServeHub.main) {
        streams[rendition]?[format]?.setHeader(bytes)
    }

    /// Starts `format`'s stream over for a new header (the encode restarted with parameters the
    /// container holds in its header): its viewers end after what they have queued, and may
    /// reconnect. Returns how many were ended.
    func restartStream(_ format: ServeFormat, rendition: String = ServeHub.main) -> Int {
        streams[rendition]?[format]?.restart(.streamChanged) ?? 0
    }

    /// Publishes a chunk of a stream to its cache and viewers.
    func publish(_ chunk: ServeChunk, to format: ServeFormat, rendition: String = ServeHub.main) {
        streams[rendition]?[format]?.publish(chunk)
    }

    /// Every viewer's figures and the totals.
    package func statistics() -> (viewers: [ServeViewerStatistics], totals: Totals) {
        let (current, figures, totals) = state.withLock { state in
            let current = state.viewers.values.sorted { $0.id < $1.id }
            var totals = state.totals
            totals.viewers = current.count
            return (current, state.transportFigures, totals)
        }
        let now = clock()
        return (
            current.map { viewer in
                var entry = viewer.statistics(now: now)
                entry.admittedBy = viewer.credential.description
                if let transport = figures[viewer.id]?() {
                    entry.rttMs = transport.rttMs
                    entry.lostPackets = transport.lost
                    entry.droppedPackets = transport.dropped
                    entry.sendBufferMs = transport.sendBufferMs
                }
                return entry
            }, totals
        )
    }

    /// Refuses new viewers and ends every stream (viewers read what is queued, then the end).
    public func close() {
        state.withLock { $0.closed = true }
        for stream in streams.values.flatMap(\.values) { stream.finishAll(.serverStopped) }
    }
}
#endif
