import Foundation
import OnAirCore

/// Runs an `AdaptiveBitrateController` on its own thread: reads the network outputs every
/// `interval` seconds, hands the controller's decisions to `apply` and to `events` (and the links
/// whose backlog a decision cuts to `cut`), and keeps
/// the counters `LiveStatistics` shows.
final class AdaptiveBitrateLoop: Sendable {
    private let interval: Double
    private let measure: @Sendable () -> [(link: Int, measurement: LinkMeasurement)]
    private let apply: @Sendable (Int) -> Void
    private let events: (@Sendable (BitrateDecision) -> Void)?
    private let cut: (@Sendable ([Int]) -> Void)?
    private struct State {
        var controller: AdaptiveBitrateController
        var stopping = false
        var running = false
    }
    private let state: Locked<State>
    /// Signalled by `stop`: wakes the thread from its wait between readings.
    private let stopSignal = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// What `LiveStatistics` shows of the controller.
    struct Snapshot {
        var changes: Int
        var lastDecision: BitrateDecision?
        var worstQueueSeconds: Double
        var linkEstimate: Int?
    }

    init(
        settings: AdaptiveBitrateSettings, interval: Double = 0.1,
        measure: @escaping @Sendable () -> [(link: Int, measurement: LinkMeasurement)],
        apply: @escaping @Sendable (Int) -> Void, events: (@Sendable (BitrateDecision) -> Void)?,
        cut: (@Sendable ([Int]) -> Void)? = nil
    ) {
        state = Locked(State(controller: AdaptiveBitrateController(settings: settings)))
        self.interval = interval
        self.measure = measure
        self.apply = apply
        self.events = events
        self.cut = cut
    }

    /// Starts the thread.
    func start() {
        state.withLock { $0.running = true }
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.name = "onair.abr"
        thread.start()
    }

    /// Stops the thread and waits for it.
    func stop() {
        let wasRunning = state.withLock { state in
            defer {
                state.running = false
                state.stopping = true
            }
            return state.running
        }
        guard wasRunning else { return }
        stopSignal.signal()
        done.wait()
    }

    var snapshot: Snapshot {
        state.withLock {
            Snapshot(
                changes: $0.controller.changes, lastDecision: $0.controller.lastDecision,
                worstQueueSeconds: $0.controller.queueingDelay, linkEstimate: $0.controller.linkEstimate)
        }
    }

    private func run() {
        while !state.withLock({ $0.stopping }) {
            if stopSignal.wait(timeout: .now() + interval) == .success { return }
            let readings = measure()
            let decision = state.withLock { $0.controller.update(readings) }
            if let decision {
                if decision.to != decision.from { apply(decision.to) }
                if !decision.cutLinks.isEmpty { cut?(decision.cutLinks) }
                events?(decision)
            }
        }
    }
}
