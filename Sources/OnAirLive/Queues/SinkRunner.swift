import Foundation
import OnAirCore

/// Runs one sink on its own thread behind a bounded packet queue, so a slow sink never holds up
/// the encoders or the other sinks for longer than its queue takes to fill.
final class SinkRunner: @unchecked Sendable {
    let sink: any PacketSink
    let queue: BoundedQueue<EncodedPacket>
    private let overflow: BoundedQueue<EncodedPacket>.OverflowPolicy
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var failure: (any Error)?
    // Under `lock`: what waits for the sink, for adaptive bitrate.
    private var pendingBytes = 0
    private var newestTime: Double?
    private var newestVideoTime: MediaTime?
    private var writingTime: Double?
    private var writing = false
    private var written = 0
    /// The transport's own backlog (socket or SRT send buffer), read on the sink's thread.
    private var transportGauge = TransportBacklogGauge()
    /// Set by `requestSkip`, under `lock`: skip to a fresh keyframe before the next packet.
    private var skipRequested = false

    /// Seconds of media that may wait for a `ReconnectingSink` before it is told to skip to a
    /// fresh keyframe (nil: no bound).
    private let maximumBacklog: Double?
    /// Told once, on the sink's thread, when the sink first fails.
    private let failed: (@Sendable (any Error) -> Void)?

    /// `dropWhenFull` suits network sinks that must not stall the session; files wait instead.
    /// `maximumBacklog` bounds the delay of a network sink's queue (see `ReconnectingSink.skipToKeyFrame`).
    /// `failed` hears about the sink's first error at once (the runner then drains without writing).
    init(
        sink: any PacketSink, capacity: Int, dropWhenFull: Bool, maximumBacklog: Double? = nil,
        failed: (@Sendable (any Error) -> Void)? = nil
    ) {
        self.sink = sink
        self.failed = failed
        self.maximumBacklog = maximumBacklog
        self.queue = BoundedQueue(capacity: capacity)
        self.overflow = dropWhenFull ? .dropOldest : .wait
    }

    /// The first error the sink threw, if any.
    var error: (any Error)? {
        lock.lock()
        defer { lock.unlock() }
        return failure
    }

    func start() {
        let thread = Thread { [self] in
            while let packet = queue.pop() {
                lock.lock()
                writing = true
                writingTime = packet.dts.seconds
                let newest = newestTime, newestVideo = newestVideoTime
                let skipNow = skipRequested
                skipRequested = false
                lock.unlock()
                let reconnecting = sink as? any ReconnectingSink
                if let reconnecting {
                    var gauge = transportGauge
                    gauge.update(now: ProcessInfo.processInfo.systemUptime) { reconnecting.transportMeasurement }
                    lock.lock()
                    transportGauge = gauge
                    lock.unlock()
                }
                // Everything between the encoder and the wire counts: this queue, the socket's or
                // SRT's send buffer, and the network's queue seen in the round trip.
                // A skip only cuts this queue, and each one costs a keyframe: it waits until at
                // least half the bound is queued here, so a transport buffer that alone holds
                // about the bound does not turn the stream into keyframes.
                let queuedHere = newest.map { $0 - packet.dts.seconds } ?? 0
                if let newest, let reconnecting,
                    skipNow
                        || maximumBacklog.map({
                            queuedHere >= $0 / 2 && queuedHere + transportGauge.seconds > $0
                        }) == true
                {
                    // Any video frame encoded from now on — the keyframe the sink asks for — comes
                    // after the newest one queued.
                    reconnecting.skipToKeyFrame(after: newestVideo ?? MediaTime(seconds: newest))
                }
                defer {
                    lock.lock()
                    writing = false
                    pendingBytes -= packet.byteCount
                    written += packet.byteCount
                    lock.unlock()
                }
                guard error == nil else { continue }  // keep draining so producers never block
                do { try sink.write(packet) } catch { record(error) }
            }
            do { try sink.finish() } catch { record(error) }
            done.signal()
        }
        thread.name = "onair.sink.\(sink.destination)"
        thread.start()
    }

    func enqueue(_ packet: EncodedPacket) {
        lock.lock()
        pendingBytes += packet.byteCount
        newestTime = max(newestTime ?? packet.dts.seconds, packet.dts.seconds)
        if packet.mediaType == .video { newestVideoTime = max(newestVideoTime ?? packet.dts, packet.dts) }
        lock.unlock()
        if let dropped = queue.push(packet, overflow: overflow) {
            lock.lock()
            pendingBytes -= dropped.byteCount
            lock.unlock()
        }
    }

    /// Asks the sink's thread to cut the backlog (skip to a fresh keyframe) before its next packet,
    /// as adaptive bitrate does when a link collapses under the stream.
    func requestSkip() {
        lock.lock()
        skipRequested = true
        lock.unlock()
    }

    /// The transport's own backlog at its latest reading: seconds of delay and bytes in its buffer.
    var transportBacklog: (seconds: Double, bytes: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (transportGauge.seconds, transportGauge.bytes)
    }

    /// Bytes handed to the sink so far, bytes waiting for it (queued or being written), and the
    /// seconds of media between the packet being written and the newest one queued.
    var backlog: (written: Int, bytes: Int, seconds: Double) {
        let depth = queue.depth
        lock.lock()
        defer { lock.unlock() }
        guard depth > 0 || writing, let newestTime, let writingTime else { return (written, max(pendingBytes, 0), 0) }
        return (written, max(pendingBytes, 0), max(0, newestTime - writingTime))
    }

    /// Closes the queue and waits until the sink has written everything and finished.
    func finish() {
        queue.close()
        done.wait()
    }

    private func record(_ error: any Error) {
        lock.lock()
        let first = failure == nil
        if first { failure = error }
        lock.unlock()
        if first { failed?(error) }
    }
}
