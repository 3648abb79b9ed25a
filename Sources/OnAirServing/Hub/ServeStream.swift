#if os(Linux)
import Foundation

/// One served container: its header, the keyframe cache (the last keyframe and every chunk after
/// it) and the viewers attached to it. A viewer that attaches gets the header and the cache at
/// once, so its picture starts without waiting for the next keyframe.
final class ServeStream: @unchecked Sendable {
    let format: ServeFormat
    private let lock = NSLock()
    private var header: [UInt8]?
    private var cache: [ServeChunk] = []
    private var cacheBytes = 0
    private var viewers: [Int: ServeViewer] = [:]
    private var published = 0

    /// The most bytes the keyframe cache holds; past it the cache empties until the next keyframe.
    static let cacheLimit = 16 * 1024 * 1024

    init(format: ServeFormat) {
        self.format = format
    }

    /// Sets the container header and hands it to the viewers already waiting.
    func setHeader(_ bytes: [UInt8]) {
        lock.lock()
        header = bytes
        let targets = Array(viewers.values)
        lock.unlock()
        guard !bytes.isEmpty else { return }
        let chunk = ServeChunk(bytes: bytes, isKeyframe: false, isHeader: true, published: ProcessInfo.processInfo.systemUptime)
        for viewer in targets { viewer.enqueue(chunk) }
    }

    /// Adds a chunk to the cache and to every viewer's queue.
    func publish(_ chunk: ServeChunk) {
        lock.lock()
        if chunk.isKeyframe {
            cache = [chunk]
            cacheBytes = chunk.bytes.count
        } else if !cache.isEmpty {
            if cacheBytes + chunk.bytes.count > Self.cacheLimit {
                cache = []
                cacheBytes = 0
            } else {
                cache.append(chunk)
                cacheBytes += chunk.bytes.count
            }
        }
        published += chunk.bytes.count
        let targets = Array(viewers.values)
        lock.unlock()
        for viewer in targets { viewer.enqueue(chunk) }
    }

    /// Attaches a viewer, primed with the header and the cache.
    func attach(_ viewer: ServeViewer) {
        lock.lock()
        defer { lock.unlock() }
        viewer.prime(header: header, cache: cache, now: ProcessInfo.processInfo.systemUptime)
        viewers[viewer.id] = viewer
    }

    func detach(_ viewer: ServeViewer) {
        lock.lock()
        viewers[viewer.id] = nil
        lock.unlock()
    }

    /// Bytes published since the start.
    var bytesPublished: Int {
        lock.lock()
        defer { lock.unlock() }
        return published
    }

    /// Starts the stream over (a new header follows): the viewers attached get no more chunks and
    /// end once their queues are sent (`reason`); the header and the keyframe cache are dropped.
    /// Returns how many viewers were ended.
    func restart(_ reason: ServeViewer.EndReason) -> Int {
        lock.lock()
        let targets = Array(viewers.values)
        viewers = [:]
        header = nil
        cache = []
        cacheBytes = 0
        lock.unlock()
        for viewer in targets { viewer.finish(reason) }
        return targets.count
    }

    /// Ends every attached viewer's stream.
    func finishAll(_ reason: ServeViewer.EndReason) {
        lock.lock()
        let targets = Array(viewers.values)
        lock.unlock()
        for viewer in targets { viewer.finish(reason) }
    }
}
#endif
