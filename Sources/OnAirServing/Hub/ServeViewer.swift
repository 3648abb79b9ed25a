#if os(Linux)
import Foundation
import OnAirCore

/// One viewer of a served stream with its own bounded queue of shared chunks.
///
/// The producer never waits for a viewer: `enqueue` only appends. When the queue would pass its
/// byte bound, what waits is dropped (a chunk already partly sent is finished, so the byte stream
/// stays whole), the skip is counted and the viewer resumes at the next keyframe. A viewer that
/// stays behind — its queue never empties between skips, or it keeps skipping (skips at most
/// twice the timeout apart) for longer than the timeout — or whose oldest chunk is older than the
/// timeout is cut.
package final class ServeViewer: Sendable {
    /// Why a viewer's stream ended.
    public enum EndReason: String, Sendable, Codable {
        /// The server stopped serving.
        case serverStopped = "server stopped"
        /// The viewer fell too far behind and was cut.
        case tooSlow = "too slow"
        /// The viewer closed the connection.
        case left = "left"
        /// A reload withdrew the token (or user) that admitted the viewer, and it was cut.
        case credentialWithdrawn = "credential withdrawn"
        /// The encode restarted with parameters its container cannot change mid-stream (fragmented
        /// MP4's init segment): the viewer got everything before the change and was ended.
        case streamChanged = "stream changed"
    }

    /// A number unique among the server's viewers.
    public let id: Int
    /// `http`, `srt` or `rtsp/udp`, `rtsp/tcp`.
    public var transport: String { state.withLock { $0.transport } }
    /// The stream the viewer gets.
    public let format: ServeFormat
    /// The peer's address.
    public let peer: String
    /// What admitted the viewer (a reload that withdraws it cuts the viewer).
    public let credential: ServeCredential
    /// Seconds behind (or without catching up) after which the viewer is cut.
    public let timeout: Double
    /// The most bytes the queue holds.
    public let capacityBytes: Int

    /// Where `read` and `readChunk` wait. Its lock is always taken first, around the box's, by a
    /// wait and by every change a wait is for (a chunk queued, the end, a cut), so a wake cannot
    /// fall between a check and its wait.
    private let condition = NSCondition()
    private let state: Locked<State>

    /// The queue and the figures, in the box.
    fileprivate struct State {
        let timeout: Double
        let capacityBytes: Int
        /// The hub's clock (seconds, monotonic) and its reading when the viewer connected.
        let clock: @Sendable () -> Double
        let connected: Double
        var transport: String
        var queue: [ServeChunk] = []
        var head = 0
        var headOffset = 0
        var queuedBytes = 0
        var waitingForKeyframe = false
        var behindSince: Double?
        /// The first skip of the current run (skips at most twice the timeout apart), the last one,
        /// and whether the run has lasted past the timeout.
        var skipRun: (start: Double, last: Double)?
        var skippedTooLong = false
        var ended: EndReason?
        var cutDetail: String?
        var sent = 0
        var skipCount = 0
        var droppedChunks = 0
        var chunksTaken = 0
        var firstKeyframe: Double?
        var keyframeQueued = false
        var onClose: (@Sendable (ServeViewer) -> Void)?
        /// Who waits for the next read to give something (an event-driven transport), called once.
        var wake: (@Sendable () -> Void)?
        /// What closes the transport's connection when the viewer is cut between its reads, called once.
        var cutHook: (@Sendable () -> Void)?
    }

    init(
        id: Int, transport: String, format: ServeFormat, peer: String, credential: ServeCredential = .anyone, timeout: Double,
        capacityBytes: Int, clock: @escaping @Sendable () -> Double = ServeHub.uptime,
        onClose: @escaping @Sendable (ServeViewer) -> Void
    ) {
        self.id = id
        self.format = format
        self.peer = peer
        self.credential = credential
        self.timeout = timeout
        self.capacityBytes = capacityBytes
        state = Locked(
            State(timeout: timeout, capacityBytes: capacityBytes, clock: clock, connected: clock(), transport: transport, onClose: onClose))
    }

    /// Runs `body` on the state with the condition's lock held, then the box's: how every change a
    /// wait may be for is made.
    private func changing<Result>(_ body: (inout State) -> Result) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return state.withLock(body)
    }

    /// Queues the header and the chunks since the last keyframe (called by the stream under its lock).
    func prime(header: [UInt8]?, cache: [ServeChunk], now: Double) {
        changing { state in
            if let header, !header.isEmpty {
                state.append(ServeChunk(bytes: header, isKeyframe: false, isHeader: true, published: now))
            }
            if cache.first?.isKeyframe == true {
                for chunk in cache { state.append(chunk) }
            } else {
                state.waitingForKeyframe = true
            }
        }
    }

    /// Adds a chunk, skipping to the next keyframe when the queue is full; never blocks. A viewer
    /// found behind past the timeout is cut here too, so one whose transport stopped reading (a
    /// connection whose socket never drains) does not hold its slot until it reads again.
    func enqueue(_ chunk: ServeChunk) {
        condition.lock()
        let (ready, hook) = state.withLock { state in
            if state.admit(chunk) { condition.signal() }
            var hook: (@Sendable () -> Void)?
            if state.ended == nil, state.head < state.queue.count || state.behindSince != nil || state.skippedTooLong {
                let now = state.clock()
                if state.isTooFarBehind(now: now) {
                    _ = state.cut(now: now, context: "found when a chunk was published")
                    condition.broadcast()
                    hook = state.takeCutHook()
                }
            }
            return (state.readyWake(), hook)
        }
        condition.unlock()
        ready?()
        hook?()
    }

    /// Calls `hook` once, from any thread, when the viewer is cut other than by a read of its own
    /// (found too far behind when a chunk is published, its credential withdrawn) — at once if it
    /// already was. A transport that may not be reading then (an event-driven server waiting for its
    /// socket to drain) closes the connection there.
    public func whenCut(_ hook: @escaping @Sendable () -> Void) {
        let already = changing { state in
            guard !state.isCut else { return true }
            state.cutHook = hook
            return false
        }
        if already { hook() }
    }

    /// Calls `wake` once, from any thread, when a read would give something (a chunk queued,
    /// the end, a cut) — at once if it already would. For a transport that does not wait in
    /// `read` (`read(into:wait: 0)`).
    public func notify(_ wake: @escaping @Sendable () -> Void) {
        let now = changing { state in
            guard state.head == state.queue.count && state.ended == nil else { return true }
            state.wake = wake
            return false
        }
        if now { wake() }
    }

    /// What one read gives.
    public enum Read: Sendable, Equatable {
        /// This many bytes were copied.
        case bytes(Int)
        /// Nothing arrived within the wait.
        case nothing
        /// The stream ended (the server stops).
        case end
        /// The viewer was cut (too slow).
        case cut
    }

    /// Copies the next queued bytes into `buffer`, waiting up to `wait` seconds for some (0: not at all).
    public func read(into buffer: UnsafeMutableRawBufferPointer, wait: Double = 1) -> Read {
        condition.lock()
        defer { condition.unlock() }
        waitForHead(wait)
        return state.withLock { state in
            if let early = state.headRead() { return early }
            let now = state.clock()
            var copied = 0
            while copied < buffer.count && state.head < state.queue.count {
                let chunk = state.queue[state.head]
                if chunk.isKeyframe && state.headOffset == 0 && state.firstKeyframe == nil { state.firstKeyframe = now }
                let count = min(buffer.count - copied, chunk.bytes.count - state.headOffset)
                let offset = state.headOffset
                chunk.bytes.withUnsafeBytes { source in
                    buffer.baseAddress!.advanced(by: copied).copyMemory(from: source.baseAddress!.advanced(by: offset), byteCount: count)
                }
                copied += count
                state.headOffset += count
                if state.headOffset == chunk.bytes.count {
                    state.queuedBytes -= chunk.bytes.count
                    state.head += 1
                    state.headOffset = 0
                }
            }
            state.tookChunks(bytes: copied)
            return .bytes(copied)
        }
    }

    /// Waits up to `wait` seconds for a queued chunk or the end (with the condition's lock held).
    private func waitForHead(_ wait: Double) {
        let deadline = Date(timeIntervalSinceNow: wait)
        while wait > 0 && state.withLock({ $0.head == $0.queue.count && $0.ended == nil }) {
            if !condition.wait(until: deadline) { break }
        }
    }

    /// What `readChunk` gives.
    public enum ChunkRead: Sendable {
        /// The next whole chunk.
        case chunk(ServeChunk)
        /// Nothing arrived within the wait.
        case nothing
        /// The stream ended (the server stops).
        case end
        /// The viewer was cut (too slow).
        case cut
    }

    /// Takes the next whole chunk (the elementary form: one packet each), waiting up to `wait`
    /// seconds for one; the same skip and timeout rules as `read`.
    public func readChunk(wait: Double = 1) -> ChunkRead {
        condition.lock()
        defer { condition.unlock() }
        waitForHead(wait)
        return state.withLock { state in
            switch state.headRead() {
            case .cut?: return .cut
            case .end?: return .end
            case .nothing?, .bytes?: return .nothing
            case nil: break
            }
            let chunk = state.queue[state.head]
            if chunk.isKeyframe && state.firstKeyframe == nil { state.firstKeyframe = state.clock() }
            state.queuedBytes -= chunk.bytes.count
            state.head += 1
            state.headOffset = 0
            state.chunksTaken += 1
            state.tookChunks(bytes: chunk.bytes.count)
            return .chunk(chunk)
        }
    }

    /// For a transport that stopped taking chunks because its own sending is backed up: cuts the
    /// viewer (and says so) once it has been behind past the timeout, as a read would; true at once
    /// for a viewer already cut (its credential withdrawn too). `context` says why the transport
    /// stopped taking (kept in `cutReason`).
    public func cutIfTooFarBehind(context: @autoclosure () -> String? = nil) -> Bool {
        changing { state in
            if state.isCut { return true }
            let now = state.clock()
            guard state.ended == nil, state.isTooFarBehind(now: now) else { return false }
            _ = state.cut(now: now, context: context())
            return true
        }
    }

    /// Why the server cut the viewer, in words ("too slow: " with its lag and queue then, or its
    /// credential withdrawn), or nil when it was not cut.
    public var cutReason: String? {
        state.withLock { state in
            switch state.ended {
            case .tooSlow?: return state.cutDetail
            case .credentialWithdrawn?: return "its credential was withdrawn"
            case .streamChanged?: return "the encode restarted with a new init segment: reconnect"
            default: return nil
            }
        }
    }

    /// Names the transport more exactly once the viewer has chosen it (an RTSP client's SETUP).
    public func setTransport(_ name: String) {
        state.withLock { $0.transport = name }
    }

    /// Ends the stream: queued bytes are still read, then `read` returns `.end`.
    func finish(_ reason: EndReason) {
        let ready = changing { state in
            if state.ended == nil { state.ended = reason }
            condition.broadcast()
            return state.readyWake()
        }
        ready?()
    }

    /// Cuts the viewer now, queued bytes dropped (its credential was withdrawn): the next read
    /// gives `.cut`. False when it had already ended.
    func withdraw() -> Bool {
        let woken = changing { state -> (ready: (@Sendable () -> Void)?, hook: (@Sendable () -> Void)?)? in
            guard state.ended == nil else { return nil }
            state.ended = .credentialWithdrawn
            condition.broadcast()
            return (state.readyWake(), state.takeCutHook())
        }
        guard let woken else { return false }
        woken.ready?()
        woken.hook?()
        return true
    }

    /// The transport is done with the viewer (it left or was cut); frees its slot.
    public func close() {
        let (ready, callback) = changing { state in
            if state.ended == nil { state.ended = .left }
            let callback = state.onClose
            state.onClose = nil
            state.cutHook = nil
            state.queue = []
            state.head = 0
            state.queuedBytes = 0
            condition.broadcast()
            return (state.readyWake(), callback)
        }
        ready?()
        callback?(self)
    }

    /// Why the viewer ended, or nil while it is served.
    public var endReason: EndReason? { state.withLock { $0.ended } }

    /// The viewer's figures at `now` on the hub's clock (nil: its reading now).
    public func statistics(now: Double? = nil) -> ServeViewerStatistics {
        return state.withLock { state in
            let now = now ?? state.clock()
            let lag = state.head < state.queue.count ? max(0, now - max(state.queue[state.head].published, state.connected)) : 0
            return ServeViewerStatistics(
                id: id, transport: state.transport, format: format, address: peer, bytesSent: state.sent,
                queueBytes: state.queuedBytes, queueChunks: state.queue.count - state.head, lagSeconds: lag,
                skips: state.skipCount, droppedChunks: state.droppedChunks,
                connectedSeconds: now - state.connected,
                firstKeyframeSeconds: state.firstKeyframe.map { $0 - state.connected },
                packetsSent: format == .elementary ? state.chunksTaken : nil)
        }
    }
}

extension ServeViewer.State {
    /// `enqueue`'s admission of a chunk; true when it was queued or dropped (a waiting read is then signalled).
    mutating func admit(_ chunk: ServeChunk) -> Bool {
        guard ended == nil else { return false }
        if chunk.isHeader {
            append(chunk)
        } else if waitingForKeyframe && !chunk.isKeyframe {
            droppedChunks += 1
            return false
        } else if queuedBytes + chunk.bytes.count > capacityBytes {
            // Keep only a chunk already partly sent (TS packets and MP4 boxes stay whole).
            let keep = headOffset > 0 ? 1 : 0
            let dropping = queue.count - head - keep
            if dropping > 0 {
                for index in (head + keep)..<queue.count { queuedBytes -= queue[index].bytes.count }
                queue.removeSubrange((head + keep)...)
                droppedChunks += dropping
            }
            skipCount += 1
            let now = clock()
            if behindSince == nil { behindSince = now }
            // Skips that follow each other within twice the timeout are one run, and a run that
            // lasts past the timeout cuts the viewer even when it empties its queue between skips:
            // a socket's send buffer can take in what was queued (so the viewer looks caught up)
            // while the reader behind it drains it at a fraction of the stream's rate.
            if let run = skipRun, now - run.last <= 2 * timeout {
                skipRun = (run.start, now)
                if now - run.start > timeout { skippedTooLong = true }
            } else {
                skipRun = (now, now)
            }
            waitingForKeyframe = !chunk.isKeyframe
            if chunk.isKeyframe { append(chunk) } else { droppedChunks += 1 }
        } else {
            waitingForKeyframe = false
            append(chunk)
        }
        return true
    }

    mutating func append(_ chunk: ServeChunk) {
        queue.append(chunk)
        queuedBytes += chunk.bytes.count
        if chunk.isKeyframe { keyframeQueued = true }
    }

    /// The cut hook, taken.
    mutating func takeCutHook() -> (@Sendable () -> Void)? {
        defer { cutHook = nil }
        return cutHook
    }

    /// The waiting wake, taken, when a read would now give something.
    mutating func readyWake() -> (@Sendable () -> Void)? {
        guard head < queue.count || ended != nil, let wake else { return nil }
        self.wake = nil
        return wake
    }

    /// After the wait for a queued chunk: nil when there is one to take, else what the read gives.
    /// Cuts the viewer when it has been behind too long.
    mutating func headRead() -> ServeViewer.Read? {
        if isCut { return .cut }
        if head == queue.count { return ended == nil ? .nothing : .end }
        let now = clock()
        return isTooFarBehind(now: now) ? cut(now: now) : nil
    }

    /// Whether the server cut the viewer, too slow or its credential withdrawn.
    var isCut: Bool { ended == .tooSlow || ended == .credentialWithdrawn }

    /// Whether the viewer has stayed behind past the timeout.
    func isTooFarBehind(now: Double) -> Bool {
        if skippedTooLong { return true }
        if let behindSince, now - behindSince > timeout { return true }
        // Chunks from the keyframe cache count from the viewer's arrival, not from when they were made.
        return head < queue.count && now - max(queue[head].published, connected) > timeout && !queue[head].isHeader
    }

    /// Bookkeeping after chunks were taken.
    mutating func tookChunks(bytes: Int) {
        if head > 64 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        if head == queue.count && !waitingForKeyframe { behindSince = nil }
        sent += bytes
    }

    mutating func cut(now: Double, context: String? = nil) -> ServeViewer.Read {
        ended = .tooSlow
        cutDetail = "too slow: " + describeLag(now: now) + (context.map { "; \($0)" } ?? "")
        return .cut
    }

    /// Why the viewer is behind, in words, for the line that says it was cut.
    func describeLag(now: Double) -> String {
        var parts: [String] = []
        if let behindSince { parts.append(String(format: "skipping for %.1f s (%d skips)", now - behindSince, skipCount)) }
        if skippedTooLong, let run = skipRun {
            parts.append(String(format: "skips kept coming for %.1f s (%d skips)", run.last - run.start, skipCount))
        }
        if head < queue.count {
            parts.append(
                String(
                    format: "oldest queued chunk %.1f s old, %d bytes queued", now - max(queue[head].published, connected),
                    queuedBytes))
        }
        parts.append(String(format: "connected %.1f s ago, %d bytes sent, timeout %g s", now - connected, sent, timeout))
        return parts.joined(separator: "; ")
    }
}
#endif
