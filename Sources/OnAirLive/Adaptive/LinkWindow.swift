/// The recent readings of one network output, and what they say about its link: the rate it
/// delivers, its queueing delay and how fast that delay grows.
struct LinkWindow: Sendable {
    private(set) var samples: [LinkMeasurement] = []
    /// Delays computed at each sample, for the trend.
    private var delays: [Double] = []

    /// Adds a reading, keeping about `window` seconds (a restarted connection starts afresh).
    mutating func add(_ sample: LinkMeasurement, keeping window: Double, streamRate: Double) {
        if let last = samples.last,
            sample.bytesSent < last.bytesSent || sample.bytesDelivered < last.bytesDelivered || sample.time <= last.time
        {
            samples.removeAll()
            delays.removeAll()
        }
        samples.append(sample)
        delays.append(0)
        while samples.count > 2 && sample.time - samples[1].time >= 2 * window {
            samples.removeFirst()
            delays.removeFirst()
        }
        delays[delays.count - 1] = delay(of: sample, rate: deliveryRate(span: window), streamRate: streamRate)
    }

    /// Bits per second delivered over about the last `span` seconds (nil until two readings span
    /// at least half of it).
    func deliveryRate(span: Double) -> Int? {
        guard let last = samples.last,
            let first = samples.last(where: { last.time - $0.time >= span - 1e-9 }) ?? samples.first,
            last.time - first.time >= span / 2
        else { return nil }
        return Int(Double(last.bytesDelivered - first.bytesDelivered) * 8 / (last.time - first.time))
    }

    /// The queueing delay of `sample`: what waits between the encoder and the wire, at the rate the
    /// link delivers (the transport's own figure for its buffer where it has one), or the network's
    /// queue that the round trip shows above its minimum if that is more.
    func delay(of sample: LinkMeasurement, rate: Int?, streamRate: Double) -> Double {
        var drainRate = Double(max(rate ?? 0, 0)) > 0.05 * streamRate ? Double(rate!) : streamRate
        // OnAir's own queue: its bytes at the delivery rate, but no more than the media time it
        // holds — a keyframe's bytes at the average rate of a link that is not full (or of a
        // sender that was short of CPU) would read as seconds of delay that are not there.
        let own =
            sample.transport == nil
            ? Double(sample.queuedBytes) * 8 / drainRate
            : min(Double(sample.queuedBytes) * 8 / drainRate, sample.queuedSeconds)
        var delay: Double
        if let transportSeconds = sample.transport?.queuedSeconds {
            delay = own + transportSeconds
        } else {
            // A TCP socket's own delivery rate, measured while it had data to send, is what the
            // link can do; a stream sending below it (a keyframe's burst on a fast link) drains
            // that fast, not at the average rate it has been sending.
            drainRate = max(drainRate, Double(sample.transport?.deliveryRate ?? 0))
            delay = own + Double(sample.transport?.queuedBytes ?? 0) * 8 / drainRate
        }
        // What is in flight over the bare round trip is no queue.
        delay = max(0, delay - (sample.transport?.minimumRoundTripTime ?? 0))
        // Without a rate yet, OnAir's own queue still tells its media time. The transport's
        // buffer holds what is in flight too, so the round trip's rise above its minimum (the
        // network's queue) is the same delay seen from the other end: whichever shows more counts.
        delay = max(delay, sample.queuedSeconds)
        return max(delay, sample.transport?.networkQueueingDelay ?? 0)
    }

    /// The latest queueing delay.
    var currentDelay: Double { delays.last ?? 0 }

    /// The queueing delay at the reading before the latest (0 with fewer than two).
    var previousDelay: Double { delays.count >= 2 ? delays[delays.count - 2] : 0 }

    /// The least queueing delay over about the last `span` seconds: the queue that stands. A
    /// keyframe's burst raises the delay for a moment and drains; congestion keeps it up.
    /// Zero until the readings reach back that far.
    func standingDelay(span: Double) -> Double {
        guard let last = samples.last, let first = samples.first, last.time - first.time >= span - 1e-9 else { return 0 }
        var least = delays[delays.count - 1]
        for index in samples.indices.reversed() where last.time - samples[index].time <= span + 1e-9 {
            least = min(least, delays[index])
        }
        return least
    }

    /// Bits per second the encoder gave this output over about the last `span` seconds: what was
    /// handed to the transport plus the growth of OnAir's queue (nil until two readings span at
    /// least half of it). It may fall short of the encoder's target.
    func inputRate(span: Double) -> Int? {
        guard let last = samples.last,
            let first = samples.last(where: { last.time - $0.time >= span - 1e-9 }) ?? samples.first,
            last.time - first.time >= span / 2
        else { return nil }
        let entered = (last.bytesSent + last.queuedBytes) - (first.bytesSent + first.queuedBytes)
        return Int(Double(max(0, entered)) * 8 / (last.time - first.time))
    }

    /// Packets the network lost (as the transport learned) between the oldest kept reading
    /// within `span` and the latest.
    func newLosses(span: Double) -> Int {
        guard let last = samples.last, let lastLost = last.transport?.lostPackets else { return 0 }
        let reference = samples.last { last.time - $0.time >= span - 1e-9 } ?? samples.first
        return max(0, lastLost - (reference?.transport?.lostPackets ?? lastLost))
    }

    /// How fast the delay grew over about the last `span` seconds (seconds per second).
    func delayTrend(span: Double) -> Double {
        guard let last = samples.last, samples.count >= 2 else { return 0 }
        let index = samples.lastIndex { last.time - $0.time >= span - 1e-9 } ?? 0
        guard samples[index].time < last.time else { return 0 }
        return (delays[delays.count - 1] - delays[index]) / (last.time - samples[index].time)
    }

    /// Packets the transport dropped between the oldest kept reading within `span` and the latest.
    func newDrops(span: Double) -> Int {
        guard let last = samples.last, let lastDrops = last.transport?.droppedPackets else { return 0 }
        let reference = samples.last { last.time - $0.time >= span - 1e-9 } ?? samples.first
        return max(0, lastDrops - (reference?.transport?.droppedPackets ?? lastDrops))
    }
}
