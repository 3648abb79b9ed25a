import Foundation

/// One viewer of a served stream with its own bounded queue of shared chunks.
///
/// The producer never waits for a viewer: `enqueue` only appends. When the queue would pass its
/// byte bound, what waits is dropped (a chunk already partly sent is finished, so the byte stream
/// stays whole), the skip is counted and the viewer resumes at the next keyframe. A viewer that
/// stays behind — its queue never empties between skips — or whose oldest chunk is older than
/// the timeout is cut.
public final class ServeViewer: @unchecked Sendable {
    /// Why a viewer's stream ended.
    public enum EndReason: String, Sendable, Codable {
        case serverStopped = "server stopped"
        case tooSlow = "too slow"
        case left = "left"
    }

    /// A number unique among the server's viewers.
    public let id: Int
    /// `http` or `srt`.
    public let transport: String
    /// The stream the viewer gets.
    public let format: ServeFormat
    /// The peer's address.
    public let peer: String
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
    private var sent = 0
    private var skipCount = 0
    private var droppedChunks = 0
    private let connected = ProcessInfo.processInfo.systemUptime
    private var firstKeyframe: Double?
    private var keyframeQueued = false
    private var onClose: (@Sendable (ServeViewer) -> Void)?

    init(id: Int, transport: String, format: ServeFormat, peer: String, timeout: Double, capacityBytes: Int,
         onClose: @escaping @Sendable (ServeViewer) -> Void) {
        self.id = id
        self.transport = transport
        self.format = format
        self.peer = peer
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

    /// Adds a chunk, skipping to the next keyframe when the queue is full; never blocks.
    func enqueue(_ chunk: ServeChunk) {
        condition.lock()
        defer { condition.unlock() }
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

    /// Copies the next queued bytes into `buffer`, waiting up to `wait` seconds for some.
    public func read(into buffer: UnsafeMutableRawBufferPointer, wait: Double = 1) -> Read {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: wait)
        while head == queue.count && ended == nil {
            if !condition.wait(until: deadline) { break }
        }
        if ended == .tooSlow { return .cut }
        if head == queue.count { return ended == nil ? .nothing : .end }
        let now = ProcessInfo.processInfo.systemUptime
        if let behindSince, now - behindSince > timeout { return cut() }
        // Chunks from the keyframe cache count from the viewer's arrival, not from when they were made.
        if now - max(queue[head].published, connected) > timeout, !queue[head].isHeader { return cut() }
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
        if head > 64 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        if head == queue.count && !waitingForKeyframe { behindSince = nil }
        sent += copied
        return .bytes(copied)
    }

    private func cut() -> Read {
        ended = .tooSlow
        return .cut
    }

    /// Ends the stream: queued bytes are still read, then `read` returns `.end`.
    func finish(_ reason: EndReason) {
        condition.lock()
        if ended == nil { ended = reason }
        condition.broadcast()
        condition.unlock()
    }

    /// The transport is done with the viewer (it left or was cut); frees its slot.
    public func close() {
        condition.lock()
        if ended == nil { ended = .left }
        let callback = onClose
        onClose = nil
        queue = []
        head = 0
        queuedBytes = 0
        condition.broadcast()
        condition.unlock()
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
        return ServeViewerStatistics(id: id, transport: transport, format: format, address: peer, bytesSent: sent,
                                     queueBytes: queuedBytes, queueChunks: queue.count - head, lagSeconds: lag,
                                     skips: skipCount, droppedChunks: droppedChunks,
                                     connectedSeconds: now - connected,
                                     firstKeyframeSeconds: firstKeyframe.map { $0 - connected })
    }
}
