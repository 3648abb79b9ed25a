import Foundation

/// A thread-safe pool of equally sized, 64-byte aligned memory blocks handed out as
/// `MediaBuffer`s; a block comes back to the pool when the last holder of its buffer lets go.
///
/// In steady state a pipeline takes blocks the pool already has, so no pixel or sample memory is
/// allocated per frame. Up to `maximumIdle` returned blocks are kept; more are freed.
package final class BufferPool: Sendable {
    /// The size of each block in bytes.
    public let bufferSize: Int
    /// How many returned blocks are kept for reuse.
    public let maximumIdle: Int
    private struct State {
        var idle: [AlignedMemory] = []
        var outstanding = 0, allocated = 0, peak = 0
    }
    private let state = Locked(State())

    /// Creates an empty pool of `bufferSize`-byte blocks.
    public init(bufferSize: Int, maximumIdle: Int = 16) {
        self.bufferSize = max(bufferSize, 0)
        self.maximumIdle = max(maximumIdle, 0)
    }

    /// A block from the pool (a new one when none is idle). Its contents are whatever the previous
    /// holder left: the taker writes every byte it later reads.
    public func take() -> MediaBuffer {
        let memory = state.withLock { state in
            let memory: AlignedMemory
            if let reused = state.idle.popLast() {
                memory = reused
            } else {
                memory = AlignedMemory(byteCount: bufferSize)
                state.allocated += 1
            }
            state.outstanding += 1
            state.peak = max(state.peak, state.outstanding)
            return memory
        }
        return MediaBuffer(
            pointer: memory.pointer, count: bufferSize, owner: PoolLease(pool: self, memory: memory),
            padding: AlignedMemory.alignment)
    }

    fileprivate func giveBack(_ memory: AlignedMemory) {
        state.withLock { state in
            state.outstanding -= 1
            if state.idle.count < maximumIdle {
                state.idle.append(memory)
            } else {
                state.allocated -= 1
            }
        }
    }

    /// Counts at one instant: blocks held by someone (`live`), blocks in existence (`allocated`,
    /// held or idle), and the most ever held at once (`peakLive`).
    public var counts: (live: Int, allocated: Int, peakLive: Int) {
        state.withLock { ($0.outstanding, $0.allocated, $0.peak) }
    }
}

/// Returns a pool's block when the `MediaBuffer` holding it is released.
private final class PoolLease {
    let pool: BufferPool
    let memory: AlignedMemory
    init(pool: BufferPool, memory: AlignedMemory) {
        self.pool = pool
        self.memory = memory
    }
    deinit { pool.giveBack(memory) }
}
