import Foundation

/// Runs an `AdaptiveBitrateController` on its own thread: reads the network outputs every
/// `interval` seconds, hands the controller's decisions to `apply` and to `events` (and the links
/// whose backlog a decision cuts to `cut`), and keeps
/// the counters `LiveStatistics` shows.
final class AdaptiveBitrateLoop: @unchecked Sendable {
    private let interval: Double
    private let measure: @Sendable () -> [(link: Int, measurement: LinkMeasurement)]
    private let apply: @Sendable (Int) -> Void
    private let events: (@Sendable (BitrateDecision) -> Void)?
    private let cut: (@Sendable ([Int]) -> Void)?
    private let condition = NSCondition()
    // Under `condition`:
    private var controller: AdaptiveBitrateController
    private var stopping = false
    private var running = false
    private var latest: [(link: Int, measurement: LinkMeasurement)] = []
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
        controller = AdaptiveBitrateController(settings: settings)
        self.interval = interval
        self.measure = measure
        self.apply = apply
        self.events = events
        self.cut = cut
    }

    /// Starts the thread.
    func start() {
        condition.lock()
        running = true
        condition.unlock()
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.name = "onair.abr"
        thread.start()
    }

    /// Stops the thread and waits for it.
    func stop() {
        condition.lock()
        let wasRunning = running
        running = false
        stopping = true
        condition.broadcast()
        condition.unlock()
        if wasRunning { done.wait() }
    }

    var snapshot: Snapshot {
        condition.lock()
        defer { condition.unlock() }
        return Snapshot(
            changes: controller.changes, lastDecision: controller.lastDecision,
            worstQueueSeconds: controller.queueingDelay, linkEstimate: controller.linkEstimate)
    }

    private func run() {
        while true {
            condition.lock()
            let until = Date().addingTimeInterval(interval)
            while !stopping && condition.wait(until: until) {}
            if stopping {
                condition.unlock()
                return
            }
            condition.unlock()
            let readings = measure()
            condition.lock()
            latest = readings
            let decision = controller.update(readings)
            condition.unlock()
            if let decision {
                if decision.to != decision.from { apply(decision.to) }
                if !decision.cutLinks.isEmpty { cut?(decision.cutLinks) }
                events?(decision)
            }
        }
    }
}
