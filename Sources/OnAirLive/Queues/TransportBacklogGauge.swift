import Foundation

/// Turns a transport's readings into seconds of delay: what its send buffer holds (in flight
/// included) at the rate the peer acknowledges (libsrt's own figure for SRT), or the network queue
/// the round trip shows if that is more.
/// Readings are taken at most every `interval` seconds; callers serialise access.
struct TransportBacklogGauge {
    /// The least time between two readings of the transport.
    var interval = 0.1
    private var samples: [(time: Double, acknowledged: Int)] = []
    private var lastReading = -Double.infinity
    private(set) var seconds = 0.0
    private(set) var bytes = 0

    /// Reads `measure` if `interval` has passed since the last reading (nil: offline, no feedback).
    mutating func update(now: Double, measure: () -> TransportMeasurement?) {
        guard now - lastReading >= interval else { return }
        lastReading = now
        guard let reading = measure() else {
            samples.removeAll()
            seconds = 0
            bytes = 0
            return
        }
        if let last = samples.last, reading.bytesAcknowledged < last.acknowledged { samples.removeAll() }
        samples.append((now, reading.bytesAcknowledged))
        while samples.count > 2 && now - samples[1].time >= 1 { samples.removeFirst() }
        bytes = reading.queuedBytes
        if let queued = reading.queuedSeconds {
            seconds = queued
        } else {
            var rate = 16_000.0  // bytes per second: a floor while nothing has been measured
            if let first = samples.first, now - first.time >= 0.25 {
                rate = max(rate, Double(reading.bytesAcknowledged - first.acknowledged) / (now - first.time))
            }
            seconds = Double(reading.queuedBytes) / rate
        }
        seconds = max(seconds, reading.networkQueueingDelay)
    }
}
