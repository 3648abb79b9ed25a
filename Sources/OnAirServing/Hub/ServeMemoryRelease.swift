import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Hands the memory freed by departed viewers back to the system (glibc's `malloc_trim`), a
/// moment after they left, once for every departure in that moment.
///
/// Each viewer's transport thread allocates in one of glibc's per-thread arenas; when it leaves,
/// its memory is freed but kept by the arena, so under viewer churn the resident size climbs
/// although nothing leaks (bench/serve_churn.sh: the live heap, by heaptrack, back at its
/// baseline after 4 minutes of churn while the resident size was 13 MB above it; one
/// `malloc_trim(0)` gave all of it back). The trim runs on its own queue `delay` seconds after a
/// departure, so that what the transport frees after leaving (its buffers, its thread) is
/// included. Elsewhere (another C library, Apple platforms) it does nothing.
final class ServeMemoryRelease: @unchecked Sendable {
    private typealias Trim = @convention(c) (Int) -> Int32
    private let trim: Trim?
    private let delay: Double
    private let queue = DispatchQueue(label: "onair.serve.memory-release", qos: .utility)
    private let lock = NSLock()
    private var scheduled = false

    init(delay: Double = 2) {
        self.delay = delay
        #if canImport(Glibc)
        // malloc.h is not part of the Glibc module; the symbol is looked up once.
        trim = dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }
        #else
        trim = nil
        #endif
    }

    /// Something that held memory (a viewer, a file response) is gone: trims in `delay` seconds,
    /// unless a trim is already due.
    func released() {
        guard let trim else { return }
        lock.lock()
        let already = scheduled
        scheduled = true
        lock.unlock()
        guard !already else { return }
        queue.asyncAfter(deadline: .now() + delay) { [self] in
            lock.lock()
            scheduled = false
            lock.unlock()
            _ = trim(0)
        }
    }
}
