#if os(Linux)
import Foundation
import OnAirCore

#if canImport(Glibc)
import Glibc
#endif

/// Hands the memory freed by departed viewers back to the system (glibc's `malloc_trim`), a
/// moment after they left, once for every departure in that moment; and sets glibc's allocator
/// for a server whose connections come and go on threads of their own, once per process.
///
/// Each viewer's transport thread allocates in one of glibc's per-thread arenas; when it leaves,
/// its memory is freed but kept by the arena, so under viewer churn the resident size climbs
/// although nothing leaks (bench/serve_churn.sh: the live heap, by heaptrack, back at its
/// baseline after 4 minutes of churn while the resident size was 13 MB above it; one
/// `malloc_trim(0)` gave all of it back). The trim runs on its own queue `delay` seconds after a
/// departure, so that what the transport frees after leaving (its buffers, its thread) is
/// included. Besides, it trims every `period` seconds: between departures the encode and the
/// muxers keep freeing and touching pages, and a server with no viewer should sit at its live
/// size plus what is pinned, not at whatever a transient moment left (a 30-min soak without it
/// ended 1.8 % above the baseline 2 s after the last trim and 3.3 % 20 s later).
///
/// The allocator settings (see `tuneAllocator`) keep what a trim cannot return from piling up
/// in the first place. Elsewhere (another C library, Apple platforms) this does nothing.
package final class ServeMemoryRelease: Sendable {
    private typealias Trim = @convention(c) (Int) -> Int32
    private let trim: Trim?
    private let delay: Double
    private let queue = DispatchQueue(label: "onair.serve.memory-release", qos: .utility)
    private struct State {
        var scheduled = false
        var counts = (releases: 0, trims: 0)
        var timer: DispatchSourceTimer?
    }

    private let state = Locked(State())

    package init(delay: Double = 2, period: Double? = 10) {
        self.delay = delay
        _ = Self.allocatorTuned
        #if canImport(Glibc)
        // malloc.h is not part of the Glibc module; the symbol is looked up once.
        trim = dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }
        #else
        trim = nil
        #endif
        guard let trim, let period else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + period, repeating: period, leeway: .seconds(1))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            state.withLock { $0.counts.trims += 1 }
            _ = trim(0)
        }
        timer.resume()
        state.withLock { $0.timer = timer }
    }

    deinit {
        state.withLock { $0.timer }?.cancel()
    }

    /// Something that held memory (a viewer, a file response) is gone: trims in `delay` seconds,
    /// unless a trim is already due.
    package func released() {
        let unavailable = trim == nil
        let already = state.withLock { state in
            state.counts.releases += 1
            let already = state.scheduled || unavailable
            state.scheduled = true
            return already
        }
        guard !already, let trim else { return }
        queue.asyncAfter(deadline: .now() + delay) { [self] in
            state.withLock { state in
                state.scheduled = false
                state.counts.trims += 1
            }
            _ = trim(0)
        }
    }

    /// How often something was released, and how many trims ran for it (fewer: one per moment).
    package var figures: (releases: Int, trims: Int) { state.withLock { $0.counts } }

    /// The arenas glibc may create from now on (its default: eight per core).
    package static let arenaLimit: Int32 = 2
    /// Allocations from this size on get a mapping of their own, returned whole when freed.
    package static let mappedFrom: Int32 = 128 * 1024

    /// Whether glibc's allocator was set (false: another C library, or the environment's own
    /// settings were left alone); done once, when the first hub of the process is made.
    package static let allocatorTuned: Bool = tuneAllocator(environment: ProcessInfo.processInfo.environment)

    /// Sets glibc's allocator for serving, unless the environment set it (`MALLOC_ARENA_MAX`,
    /// `MALLOC_MMAP_THRESHOLD_`, `GLIBC_TUNABLES` with `glibc.malloc.`):
    /// - at most `arenaLimit` arenas: a new connection's thread joins one of these instead of
    ///   making the next of 16 (on 2 cores), each of which keeps pages pinned by a few live
    ///   allocations among freed ones that no trim can return;
    /// - a fixed mmap threshold (`mappedFrom`): glibc raises its threshold to the size of every
    ///   mapped block freed (up to 32 MiB), after which an HLS segment's copy (hundreds of KiB)
    ///   or a burst's buffers land in an arena and stay there; fixed, they are mapped and
    ///   unmapped whole.
    /// Arenas already made stay; the limit counts them.
    package static func tuneAllocator(environment: [String: String]) -> Bool {
        #if canImport(Glibc)
        let setByEnvironment =
            environment["MALLOC_ARENA_MAX"] != nil || environment["MALLOC_MMAP_THRESHOLD_"] != nil
            || environment["GLIBC_TUNABLES"]?.contains("glibc.malloc.") == true
        guard !setByEnvironment, let symbol = dlsym(nil, "mallopt") else { return false }
        typealias Option = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: Option.self)
        // malloc.h's M_ARENA_MAX and M_MMAP_THRESHOLD; mallopt gives 1 when it took the value.
        let arenas = mallopt(-8, arenaLimit)
        let threshold = mallopt(-3, mappedFrom)
        return arenas == 1 && threshold == 1
        #else
        return false
        #endif
    }
}
#endif
