import Foundation

/// The time line that retention, `/list` and program dates read: the monotonic clock, anchored
/// to the wall clock while the two agree. The wall clock steps (NTP correcting a board without a
/// real-time clock, a VM that resumes, an operator); the monotonic clock does not.
///
/// Each reading compares the two. When the wall clock has moved more than `tolerance` away from
/// where it was, that is a step: it is counted and reported to the observer. A step forward
/// re-anchors the line to the wall clock (the line jumps ahead with it: a gap, never a repeat);
/// a step back leaves the line on its course, so what it gives never goes back. Every clock is
/// injected: tests step the wall clock and run a month in a second.
package final class AnchoredClock: Sendable {
    /// Reads the wall clock.
    package let wall: @Sendable () -> Date
    /// Reads the monotonic clock, in seconds from any fixed origin.
    package let monotonic: @Sendable () -> Double
    /// Whether the kernel says the wall clock is synchronized (NTP), read each time it is asked.
    package let synchronized: @Sendable () -> Bool
    /// How far the two may part before it is a step (seconds).
    package let tolerance: Double
    private let state: Locked<State>

    private struct State {
        /// The line's time at `monotonic`.
        var anchor: (line: Date, monotonic: Double)
        /// Where the wall clock stood against the line at the last reading (seconds; 0 after a
        /// step forward, negative after a step back).
        var offset: Double = 0
        var steps = 0
        var observers: [@Sendable (Duration) -> Void] = []
    }

    /// A clock over the given readings (default: the system's wall and monotonic clocks and the
    /// kernel's synchronization state), anchored now.
    package init(
        wall: @escaping @Sendable () -> Date = { Date() },
        monotonic: @escaping @Sendable () -> Double = AnchoredClock.systemMonotonic,
        synchronized: @escaping @Sendable () -> Bool = KernelClock.isSynchronized,
        tolerance: Double = 2
    ) {
        self.wall = wall
        self.monotonic = monotonic
        self.synchronized = synchronized
        self.tolerance = tolerance
        state = Locked(State(anchor: (wall(), monotonic())))
    }

    /// Seconds of `CLOCK_MONOTONIC`.
    package static let systemMonotonic: @Sendable () -> Double = {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Calls `observer` with each step from now on (positive: the wall clock went forward), on
    /// the thread that noticed it.
    package func observeSteps(_ observer: @escaping @Sendable (Duration) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Steps noticed since the start.
    package var steps: Int { state.withLock { $0.steps } }

    /// The line's time now (checking for a step first).
    package func now() -> Date { reading().line }

    /// The line's time and the monotonic reading it was taken at.
    package func reading() -> (line: Date, monotonic: Double) {
        let wallNow = wall()
        let monotonicNow = monotonic()
        var step: Double?
        var observers: [@Sendable (Duration) -> Void] = []
        let line = state.withLock { state -> Date in
            var line = state.anchor.line.addingTimeInterval(monotonicNow - state.anchor.monotonic)
            let offset = wallNow.timeIntervalSince(line)
            if abs(offset - state.offset) > tolerance {
                step = offset - state.offset
                state.steps += 1
                observers = state.observers
                if offset > 0 {
                    state.anchor = (wallNow, monotonicNow)
                    state.offset = 0
                    line = wallNow
                } else {
                    state.offset = offset
                }
            }
            return line
        }
        if let step { for observer in observers { observer(.seconds(step)) } }
        return (line, monotonicNow)
    }

    /// The line's time of a past monotonic reading (seconds), on the current anchor.
    package func line(atMonotonic seconds: Double) -> Date {
        let now = reading()
        return now.line.addingTimeInterval(seconds - now.monotonic)
    }
}

/// What the kernel says of the wall clock: whether NTP (or anything using `adjtimex`) keeps it
/// synchronized. A board with fake-hwclock boots with a plausible date that is still wrong, so a
/// year check would not do.
package enum KernelClock {
    /// `adjtimex`'s answer without changing anything: false when it returns `TIME_ERROR` (the
    /// kernel's `STA_UNSYNC` or `STA_CLOCKERR`), true otherwise and where it cannot be asked.
    package static let isSynchronized: @Sendable () -> Bool = {
        #if os(Linux)
        guard let call = adjtimex else { return true }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 512, alignment: 16)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: 512)
        return call(buffer) != 5  // TIME_ERROR
        #else
        return true
        #endif
    }

    #if os(Linux)
    /// `adjtimex`, looked up once through the symbol: Glibc's module map leaves out
    /// <sys/timex.h>. A zeroed struct timex (modes 0) only reads; 512 bytes hold it on every
    /// architecture (208 on x86_64).
    private static let adjtimex: (@convention(c) (UnsafeMutableRawPointer) -> Int32)? = {
        guard let symbol = dlsym(nil, "adjtimex") else { return nil }  // RTLD_DEFAULT
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer) -> Int32).self)
    }()
    #endif
}
