#if os(Linux)
import Foundation
import OnAirCore

/// One served container: its header, the keyframe cache (the last keyframe and every chunk after
/// it) and the viewers attached to it. A viewer that attaches gets the header and the cache at
/// once, so its picture starts without waiting for the next keyframe.
final class ServeStream: Sendable {
    private struct State {
        var header: [UInt8]?
        var cache: [ServeChunk] = []
        var cacheBytes = 0
        var viewers: [Int: ServeViewer] = [:]
        var published = 0
    }

    let format: ServeFormat
    private let state = Locked(State())

    /// The most bytes the keyframe cache holds; past it the cache empties until the next keyframe.
    static let cacheLimit = 16 * 1024 * 1024

    /// The hub's clock, for the time a header chunk is published and a viewer primed.
    private let clock: @Sendable () -> Double

    init(format: ServeFormat, clock: @escaping @Sendable () -> Double = ServeHub.uptime) {
        self.format = format
        self.clock = clock
    }

    /// Sets the container header and hands it to the viewers already waiting.
    func setHeader(_ bytes: [UInt8]) {
        let targets = state.withLock { state in
            state.header = bytes
            return Array(state.viewers.values)
        }
        guard !bytes.isEmpty else { return }
        let chunk = ServeChunk(bytes: bytes, isKeyframe: false, isHeader: true, published: clock())
        for viewer in targets { viewer.enqueue(chunk) }
    }

    /// Adds a chunk to the cache and to every viewer's queue.
    func publish(_ chunk: ServeChunk) {
        let targets = state.withLock { state in
            if chunk.isKeyframe {
                state.cache = [chunk]
                state.cacheBytes = chunk.bytes.count
            } else if !state.cache.isEmpty {
                if state.cacheBytes + chunk.bytes.count > Self.cacheLimit {
                    state.cache = []
                    state.cacheBytes = 0
                } else {
                    state.cache.append(chunk)
                    state.cacheBytes += chunk.bytes.count
                }
            }
            state.published += chunk.bytes.count
            return Array(state.viewers.values)
        }
        for viewer in targets { viewer.enqueue(chunk) }
    }

    /// Attaches a viewer, primed with the header and the cache.
    func attach(_ viewer: ServeViewer) {
        state.withLock { state in
            viewer.prime(header: state.header, cache: state.cache, now: clock())
            state.viewers[viewer.id] = viewer
        }
    }

    func detach(_ viewer: ServeViewer) {
        state.withLock { $0.viewers[viewer.id] = nil }
    }

    /// Bytes published since the start.
    var bytesPublished: Int { state.withLock { $0.published } }

    /// Starts the stream over (a new header follows): the viewers attached get no more chunks and
    /// end once their queues are sent (`reason`); the header and the keyframe cache are dropped.
    /// Returns how many viewers were ended.
    func restart(_ reason: ServeViewer.EndReason) -> Int {
        let targets = state.withLock { state in
            let targets = Array(state.viewers.values)
            state.viewers = [:]
            state.header = nil
            state.cache = []
            state.cacheBytes = 0
            return targets
        }
        for viewer in targets { viewer.finish(reason) }
        return targets.count
    }

    /// Ends every attached viewer's stream.
    func finishAll(_ reason: ServeViewer.EndReason) {
        let targets = state.withLock { Array($0.viewers.values) }
        for viewer in targets { viewer.finish(reason) }
    }
}
#endif
