#if os(Linux)
import Foundation

/// One viewer of a served stream with its own bounded queue of shared chunks.
///
/// The producer never waits for a viewer: `enqueue` only appends. When the queue would pass its
/// byte bound, what waits is dropped (a chunk already partly sent is finished, so the byte stream
/// stays whole), the skip is counted and the viewer resumes at the next keyframe. A viewer that
/// stays behind — its queue never empties between skips — or whose oldest chunk is older than
/// the timeout is cut.
package final class ServeViewer: @unchecked Sendable {
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
    public private(set) var transport: String
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

    private let condition = NSCondition()
    private var queue: [ServeChunk] = []
    private var head = 0
    private var headOffset = 0
    private var queuedBytes = 0
    private var waitingForKeyframe = false
    private var behindSince: Double?
    private var ended: EndReason?
    private var cutDetail: String?
    private var sent = 0
    private var skipCount = 0
    private var droppedChunks = 0
    private var chunksTaken = 0
    private let connected = ProcessInfo.processInfo.systemUptime
    private var firstKeyframe: Double?
    private var keyframeQueued = false
    private var onClose: (@Sendable (ServeViewer) -> Void)?
    /// Who waits for the next read to give something (an event-driven transport), called once.
    private var wake: (@Sendable () -> Void)?
    /// What closes the transport's connection when the viewer is cut between its reads, called once.
    private var cutHook: (@Sendable () -> Void)?

    init(
        id: Int, transport: String, format: ServeFormat, peer: String, credential: ServeCredential = .anyone, timeout: Double,
        capacityBytes: Int, onClose: @escaping @Sendable (ServeViewer) -> Void
    ) {
        self.id = id
        self.transport = transport
        self.format = format
        self.peer = peer
        self.credential = credential
        self.timeout = timeout
        self.capacityBytes = capacityBytes
        self.onClose = onClose
    }

    /// Queues the header and the chunks since the last keyframe (called by the stream under its lock).
    func prime(header: [UInt8]?, cache: [ServeChunk], now: Double) {
        condition.lock()
        defer { condition.unlock() }
        if let header, !header.isEmpty {
            append(ServeChunk(bytes: header, isKeyframe: false, isHeader: true, published: now))
        }
        if cache.first?.isKeyframe == true {
            for chunk in cache { append(chunk) }
        } else {
            waitingForKeyframe = true
        }
    }

    /// Adds a chunk, skipping to the next keyframe when the queue is full; never blocks. A viewer
    /// found behind past the timeout is cut here too, so one whose transport stopped reading (a
    /// connection whose socket never drains) does not hold its slot until it reads again.
    func enqueue(_ chunk: ServeChunk) {
        condition.lock()
        admit(chunk)
        var hook: (@Sendable () -> Void)?
        if ended == nil, head < queue.count || behindSince != nil {
            let now = ProcessInfo.processInfo.systemUptime
            if isTooFarBehind(now: now) {
                _ = cut(now: now, context: "its transport took nothing meanwhile")
                condition.broadcast()
                hook = takeCutHook()
            }
        }
        let ready = readyWake()
        condition.unlock()
        ready?()
        hook?()
    }

    /// Calls `hook` once, from any thread, when the viewer is cut other than by a read of its own
    /// (found too far behind when a chunk is published, its credential withdrawn) — at once if it
    /// already was. A transport that may not be reading then (an event-driven server waiting for its
    /// socket to drain) closes the connection there.
    public func whenCut(_ hook: @escaping @Sendable () -> Void) {
        condition.lock()
        guard !isCut else {
            condition.unlock()
            hook()
            return
        }
        cutHook = hook
        condition.unlock()
    }

    /// The cut hook, taken (under the lock).
    private func takeCutHook() -> (@Sendable () -> Void)? {
        defer { cutHook = nil }
        return cutHook
    }

    /// `enqueue` under the lock.
    private func admit(_ chunk: ServeChunk) {
        guard ended == nil else { return }
        if chunk.isHeader {
            append(chunk)
        } else if waitingForKeyframe && !chunk.isKeyframe {
            droppedChunks += 1
            return
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
            if behindSince == nil { behindSince = ProcessInfo.processInfo.systemUptime }
            waitingForKeyframe = !chunk.isKeyframe
            if chunk.isKeyframe { append(chunk) } else { droppedChunks += 1 }
        } else {
            waitingForKeyframe = false
            append(chunk)
        }
        condition.signal()
    }

    /// Calls `wake` once, from any thread, when a read would give something (a chunk queued,
    /// the end, a cut) — at once if it already would. For a transport that does not wait in
    /// `read` (`read(into:wait: 0)`).
    public func notify(_ wake: @escaping @Sendable () -> Void) {
        condition.lock()
        guard head == queue.count && ended == nil else {
            condition.unlock()
            wake()
            return
        }
        self.wake = wake
        condition.unlock()
    }

    /// The waiting wake, taken, when a read would now give something (under the lock).
    private func readyWake() -> (@Sendable () -> Void)? {
        guard head < queue.count || ended != nil, let wake else { return nil }
        self.wake = nil
        return wake
    }

    private func append(_ chunk: ServeChunk) {
        queue.append(chunk)
        queuedBytes += chunk.bytes.count
        if chunk.isKeyframe { keyframeQueued = true }
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
        if let early = waitForHead(wait) { return early }
        let now = ProcessInfo.processInfo.systemUptime
        var copied = 0
        while copied < buffer.count && head < queue.count {
            let chunk = queue[head]
            if chunk.isKeyframe && headOffset == 0 && firstKeyframe == nil { firstKeyframe = now }
            let count = min(buffer.count - copied, chunk.bytes.count - headOffset)
            chunk.bytes.withUnsafeBytes { source in
                buffer.baseAddress!.advanced(by: copied).copyMemory(from: source.baseAddress!.advanced(by: headOffset), byteCount: count)
            }
            copied += count
            headOffset += count
            if headOffset == chunk.bytes.count {
                queuedBytes -= chunk.bytes.count
                head += 1
                headOffset = 0
            }
        }
        tookChunks(bytes: copied)
        return .bytes(copied)
    }

    /// Waits for a queued chunk (under the lock): nil when there is one to take, else what the read gives.
    /// Cuts the viewer when it has been behind too long.
    private func waitForHead(_ wait: Double) -> Read? {
        let deadline = Date(timeIntervalSinceNow: wait)
        while wait > 0 && head == queue.count && ended == nil {
            if !condition.wait(until: deadline) { break }
        }
        if isCut { return .cut }
        if head == queue.count { return ended == nil ? .nothing : .end }
        let now = ProcessInfo.processInfo.systemUptime
        return isTooFarBehind(now: now) ? cut(now: now) : nil
    }

    /// Whether the server cut the viewer, too slow or its credential withdrawn (under the lock).
    private var isCut: Bool { ended == .tooSlow || ended == .credentialWithdrawn }

    /// Whether the viewer has stayed behind past the timeout (under the lock).
    private func isTooFarBehind(now: Double) -> Bool {
        if let behindSince, now - behindSince > timeout { return true }
        // Chunks from the keyframe cache count from the viewer's arrival, not from when they were made.
        return head < queue.count && now - max(queue[head].published, connected) > timeout && !queue[head].isHeader
    }

    /// Bookkeeping after chunks were taken (under the lock).
    private func tookChunks(bytes: Int) {
        if head > 64 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        if head == queue.count && !waitingForKeyframe { behindSince = nil }
        sent += bytes
    }

    private func cut(now: Double, context: String? = nil) -> Read {
        ended = .tooSlow
        cutDetail = "too slow: " + describeLag(now: now) + (context.map { "; \($0)" } ?? "")
        return .cut
    }

    /// Why the viewer is behind, in words, for the line that says it was cut (under the lock).
    private func describeLag(now: Double) -> String {
        var parts: [String] = []
        if let behindSince { parts.append(String(format: "skipping for %.1f s (%d skips)", now - behindSince, skipCount)) }
        if head < queue.count {
            parts.append(
                String(
                    format: "oldest queued chunk %.1f s old, %d bytes queued", now - max(queue[head].published, connected),
                    queuedBytes))
        }
        parts.append(String(format: "connected %.1f s ago, %d bytes sent, timeout %g s", now - connected, sent, timeout))
        return parts.joined(separator: "; ")
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
        switch waitForHead(wait) {
        case .cut?: return .cut
        case .end?: return .end
        case .nothing?, .bytes?: return .nothing
        case nil: break
        }
        let chunk = queue[head]
        if chunk.isKeyframe && firstKeyframe == nil { firstKeyframe = ProcessInfo.processInfo.systemUptime }
        queuedBytes -= chunk.bytes.count
        head += 1
        headOffset = 0
        chunksTaken += 1
        tookChunks(bytes: chunk.bytes.count)
        return .chunk(chunk)
    }

    /// For a transport that stopped taking chunks because its own sending is backed up: cuts the
    /// viewer (and says so) once it has been behind past the timeout, as a read would; true at once
    /// for a viewer already cut (its credential withdrawn too). `context` says why the transport
    /// stopped taking (kept in `cutReason`).
    public func cutIfTooFarBehind(context: @autoclosure () -> String? = nil) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if isCut { return true }
        let now = ProcessInfo.processInfo.systemUptime
        guard ended == nil, isTooFarBehind(now: now) else { return false }
        _ = cut(now: now, context: context())
        return true
    }

    /// Why the server cut the viewer, in words ("too slow: " with its lag and queue then, or its
    /// credential withdrawn), or nil when it was not cut.
    public var cutReason: String? {
        condition.lock()
        defer { condition.unlock() }
        switch ended {
        case .tooSlow?: return cutDetail
        case .credentialWithdrawn?: return "its credential was withdrawn"
        case .streamChanged?: return "the encode restarted with a new init segment: reconnect"
        default: return nil
        }
    }

    /// Names the transport more exactly once the viewer has chosen it (an RTSP client's SETUP).
    public func setTransport(_ name: String) {
        condition.lock()
        transport = name
        condition.unlock()
    }

    /// Ends the stream: queued bytes are still read, then `read` returns `.end`.
    func finish(_ reason: EndReason) {
        condition.lock()
        if ended == nil { ended = reason }
        condition.broadcast()
        let ready = readyWake()
        condition.unlock()
        ready?()
    }

    /// Cuts the viewer now, queued bytes dropped (its credential was withdrawn): the next read
    /// gives `.cut`. False when it had already ended.
    func withdraw() -> Bool {
        condition.lock()
        guard ended == nil else {
            condition.unlock()
            return false
        }
        ended = .credentialWithdrawn
        condition.broadcast()
        let ready = readyWake()
        let hook = takeCutHook()
        condition.unlock()
        ready?()
        hook?()
        return true
    }

    /// The transport is done with the viewer (it left or was cut); frees its slot.
    public func close() {
        condition.lock()
        if ended == nil { ended = .left }
        let callback = onClose
        onClose = nil
        cutHook = nil
        queue = []
        head = 0
        queuedBytes = 0
        condition.broadcast()
        let ready = readyWake()
        condition.unlock()
        ready?()
        callback?(self)
    }

    /// Why the viewer ended, or nil while it is served.
    public var endReason: EndReason? {
        condition.lock()
        defer { condition.unlock() }
        return ended
    }

    /// The viewer's figures now.
    public func statistics(now: Double = ProcessInfo.processInfo.systemUptime) -> ServeViewerStatistics {
        condition.lock()
        defer { condition.unlock() }
        let lag = head < queue.count ? max(0, now - max(queue[head].published, connected)) : 0
        return ServeViewerStatistics(
            id: id, transport: transport, format: format, address: peer, bytesSent: sent,
            queueBytes: queuedBytes, queueChunks: queue.count - head, lagSeconds: lag,
            skips: skipCount, droppedChunks: droppedChunks,
            connectedSeconds: now - connected,
            firstKeyframeSeconds: firstKeyframe.map { $0 - connected },
            packetsSent: format == .elementary ? chunksTaken : nil)
    }
}
#endif
