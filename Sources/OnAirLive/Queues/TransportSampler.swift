import Foundation
import OnAirCore

/// Reads the transport of every network output (acknowledged bytes, send buffer, round trip) on
/// one thread every `interval` seconds, and keeps the latest reading per link with the backlog it
/// means in seconds. The backlog bound, adaptive bitrate and the statistics read `reading(_:)`,
/// which measures nothing; the sampler alone calls the sinks.
final class TransportSampler: Sendable {
    /// One link's latest reading.
    struct Reading: Sendable {
        /// What the transport reported (nil: offline, no feedback, or not read yet).
        var measurement: TransportMeasurement?
        /// The transport's backlog: seconds of delay and bytes in its buffer.
        var seconds = 0.0
        var bytes = 0
    }

    private let sinks: [(any ReconnectingSink)?]
    private let interval: Double
    private struct State {
        var gauges: [TransportBacklogGauge]
        var readings: [Reading]
        var acknowledged: [Int]
        var started = false
    }
    private let state: Locked<State>
    private let stopSignal = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// `sinks` by link index; nil for a link without a transport to read.
    init(sinks: [(any ReconnectingSink)?], interval: Double = 0.1) {
        self.sinks = sinks
        self.interval = interval
        var gauge = TransportBacklogGauge()
        gauge.interval = 0  // the sampler paces the readings
        state = Locked(
            State(
                gauges: Array(repeating: gauge, count: sinks.count), readings: Array(repeating: Reading(), count: sinks.count),
                acknowledged: Array(repeating: -1, count: sinks.count)))
    }

    /// Starts the sampling thread (none when no link has a transport to read).
    func start() {
        guard sinks.contains(where: { $0 != nil }) else { return }
        state.withLock { $0.started = true }
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
        let wasStarted = state.withLock { state in
            defer { state.started = false }
            return state.started
        }
        guard wasStarted else { return }
        stopSignal.signal()
        done.wait()
    }

    /// Reads every link once (the sampling thread's step; tests call it directly).
    func sample(now: Double) {
        for (link, sink) in sinks.enumerated() {
            guard let sink else { continue }
            let measurement = sink.measureTransport()
            let delivered = state.withLock { state in
                var gauge = state.gauges[link]
                gauge.update(now: now) { measurement }
                state.gauges[link] = gauge
                state.readings[link] = Reading(measurement: measurement, seconds: gauge.seconds, bytes: gauge.bytes)
                let previous = state.acknowledged[link]
                state.acknowledged[link] = measurement?.bytesAcknowledged ?? -1
                return measurement.map { previous >= 0 && $0.bytesAcknowledged > previous } ?? false
            }
            if delivered { sink.transportDelivered() }
        }
    }

    /// The latest reading of `link` (an empty one before the first).
    func reading(_ link: Int) -> Reading {
        state.withLock { link < $0.readings.count ? $0.readings[link] : Reading() }
    }
}
