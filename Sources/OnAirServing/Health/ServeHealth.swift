#if os(Linux)
import Foundation
import OnAirCore

/// Whether `onair serve` is healthy, for `/healthz` and the systemd watchdog: the encode advances
/// (encoded packets of every stream reach the outputs, judged from the frame path by
/// `ServeProgressSink`) and no output has failed. A stream with no packet for more than
/// `stallLimit` seconds (since the start, before the first) makes it unhealthy, as does any
/// output failure; it is healthy again once packets flow (a failed output stays a reason).
///
/// A wall clock the kernel says is not synchronized (`watch(clock:)`) makes it degraded: still
/// healthy (200), with the reason among `warnings`, since recording names and retention by age
/// then wait on it. The clock is injected, so the judgement is tested without waiting.
package final class ServeHealth: Sendable {
    /// The verdict: healthy or not, and why not.
    package struct Verdict: Sendable, Equatable, Codable {
        /// `ok`, `degraded` (healthy, with warnings) or `unhealthy`.
        package var status: String
        /// What stalled or failed (empty when healthy).
        package var reasons: [String]
        /// What is not right but does not stop serving (the wall clock not synchronized).
        package var warnings: [String] = []
        /// Whether the server is healthy.
        package var isHealthy: Bool { reasons.isEmpty }
    }

    /// Seconds without an encoded packet of a stream before it counts as stalled.
    package let stallLimit: Double
    private let clock: @Sendable () -> Double
    private let started: Double
    /// The streams judged.
    package let streams: Set<MediaType>
    private struct State {
        var lastPacket: [MediaType: Double] = [:]
        var packets: [MediaType: Int] = [:]
        var failures: [String] = []
        var failureCount = 0
        var listeners: [@Sendable (MediaType) -> Void] = []
        /// The session's anchored time line, whose wall clock is judged.
        var wallClock: AnchoredClock?
    }

    private let state = Locked(State())

    /// A judge for `streams`, stalled after `stallLimit` seconds, reading time from `clock` (seconds).
    package init(
        streams: Set<MediaType>, stallLimit: Double = 2,
        clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.streams = streams
        self.stallLimit = stallLimit
        self.clock = clock
        started = clock()
    }

    /// An encoded packet of `type` reached the outputs (called from the frame path).
    package func packetWritten(_ type: MediaType) {
        let now = clock()
        let listeners = state.withLock { state in
            state.lastPacket[type] = now
            state.packets[type, default: 0] += 1
            return state.listeners
        }
        for listener in listeners { listener(type) }
    }

    /// Hears every encoded packet (the systemd watchdog feeds itself here), on the frame path.
    package func onPacket(_ listener: @escaping @Sendable (MediaType) -> Void) {
        state.withLock { $0.listeners.append(listener) }
    }

    /// An output (`-o` recording or network output) failed; it stays a reason until the end.
    package func outputFailed(_ destination: String, reason: String) {
        state.withLock { state in
            state.failureCount += 1
            if state.failures.count < 16 { state.failures.append("output \(destination) failed: \(reason)") }
        }
    }

    /// Judges `clock`'s wall clock too: degraded while the kernel says it is not synchronized.
    package func watch(clock: AnchoredClock) {
        state.withLock { $0.wallClock = clock }
    }

    /// The anchored time line watched, if any (for its step count on `/metrics`).
    package var watchedClock: AnchoredClock? { state.withLock { $0.wallClock } }

    /// Output failures since the start.
    package var outputFailures: Int { state.withLock { $0.failureCount } }

    /// Encoded packets of `type` since the start.
    package func packetCount(_ type: MediaType) -> Int {
        state.withLock { $0.packets[type] ?? 0 }
    }

    /// The verdict now.
    package func verdict() -> Verdict {
        let now = clock()
        let (lastPacket, failures, wallClock) = state.withLock { ($0.lastPacket, $0.failures, $0.wallClock) }
        var reasons: [String] = []
        for type in streams.sorted(by: { $0.rawValue < $1.rawValue }) {
            let since = now - (lastPacket[type] ?? started)
            if since > stallLimit {
                let what = lastPacket[type] == nil ? "no \(type.rawValue) frame encoded yet" : "no \(type.rawValue) frame encoded"
                reasons.append("\(what) for \(String(format: "%.1f", since)) s (capture or encoder stalled)")
            }
        }
        reasons += failures
        var warnings: [String] = []
        if let wallClock, !wallClock.synchronized() {
            warnings.append(
                "the kernel says the wall clock is not synchronized (adjtimex: STA_UNSYNC): recording names may be wrong and retention by age waits"
            )
        }
        let status = !reasons.isEmpty ? "unhealthy" : warnings.isEmpty ? "ok" : "degraded"
        return Verdict(status: status, reasons: reasons, warnings: warnings)
    }
}

/// A sink beside the outputs that tells `ServeHealth` each encoded packet passed: the frame path
/// the health check and the systemd watchdog are fed from.
package final class ServeProgressSink: PacketSink, Sendable {
    /// `progress`.
    package var destination: String { "progress" }
    private let health: ServeHealth

    /// A sink reporting to `health`.
    package init(health: ServeHealth) { self.health = health }

    /// Tells the health judge a packet of the packet's type passed.
    package func write(_ packet: EncodedPacket) throws { health.packetWritten(packet.mediaType) }

    /// Nothing to finish.
    package func finish() throws {}
}
#endif
