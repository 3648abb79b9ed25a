import Foundation

/// Reads the transport of every network output (acknowledged bytes, send buffer, round trip) on
/// one thread every `interval` seconds, and keeps the latest reading per link with the backlog it
/// means in seconds. The backlog bound, adaptive bitrate and the statistics read `reading(_:)`,
/// which measures nothing; the sampler alone calls the sinks.
final class TransportSampler: @unchecked Sendable {
    /// One link's latest reading.
    struct Reading {
        /// What the transport reported (nil: offline, no feedback, or not read yet).
        var measurement: TransportMeasurement?
        /// The transport's backlog: seconds of delay and bytes in its buffer.
        var seconds = 0.0
        var bytes = 0
    }

    private let sinks: [(any ReconnectingSink)?]
    private let interval: Double
    private let lock = NSLock()
    // Under `lock`:
    private var gauges: [TransportBacklogGauge]
    private var readings: [Reading]
    private var acknowledged: [Int]
    private let stopSignal = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var started = false

    /// `sinks` by link index; nil for a link without a transport to read.
    init(sinks: [(any ReconnectingSink)?], interval: Double = 0.1) {
        self.sinks = sinks
        self.interval = interval
        var gauge = TransportBacklogGauge()
        gauge.interval = 0  // the sampler paces the readings
        gauges = Array(repeating: gauge, count: sinks.count)
        readings = Array(repeating: Reading(), count: sinks.count)
        acknowledged = Array(repeating: -1, count: sinks.count)
    }

    /// Starts the sampling thread (none when no link has a transport to read).
    func start() {
        guard sinks.contains(where: { $0 != nil }) else { return }
        lock.lock()
        started = true
        lock.unlock()
        let thread = Thread { [self] in
            while stopSignal.wait(timeout: .now() + interval) == .timedOut {
                sample(now: ProcessInfo.processInfo.systemUptime)
            }
            done.signal()
        }
        thread.name = "onair.transport"
        thread.start()
    }

    /// Stops the sampling thread and waits for it.
    func stop() {
        lock.lock()
        let wasStarted = started
        started = false
        lock.unlock()
        guard wasStarted else { return }
        stopSignal.signal()
        done.wait()
    }

    /// Reads every link once (the sampling thread's step; tests call it directly).
    func sample(now: Double) {
        for (link, sink) in sinks.enumerated() {
            guard let sink else { continue }
            let measurement = sink.measureTransport()
            lock.lock()
            var gauge = gauges[link]
            gauge.update(now: now) { measurement }
            gauges[link] = gauge
            readings[link] = Reading(measurement: measurement, seconds: gauge.seconds, bytes: gauge.bytes)
            let previous = acknowledged[link]
            let delivered = measurement.map { previous >= 0 && $0.bytesAcknowledged > previous } ?? false
            acknowledged[link] = measurement?.bytesAcknowledged ?? -1
            lock.unlock()
            if delivered { sink.transportDelivered() }
        }
    }

    /// The latest reading of `link` (an empty one before the first).
    func reading(_ link: Int) -> Reading {
        lock.lock()
        defer { lock.unlock() }
        return link < readings.count ? readings[link] : Reading()
    }
}
