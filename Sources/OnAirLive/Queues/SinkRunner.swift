import Foundation
import OnAirCore

/// Runs one sink on its own thread behind a bounded packet queue, so a slow sink never holds up
/// the encoders or the other sinks for longer than its queue takes to fill. It keeps the figures
/// of what waits (bytes, seconds of media) and knows no policy: `beforeWrite` (a network output's
/// `BacklogBound`) sees each packet as it leaves the queue.
/// Unchecked Sendable: `sink` (not Sendable) is used only on the runner's thread; every var is under `lock`
final class SinkRunner: @unchecked Sendable {
    /// What `beforeWrite` gets: the packet about to be written and the newest packet queued
    /// behind it (its time and the newest video packet's), nil when none was queued.
    typealias BeforeWrite = @Sendable (_ packet: EncodedPacket, _ newest: (time: Double, video: MediaTime?)?) -> Void

    let sink: any PacketSink
    let queue: BoundedQueue<EncodedPacket>
    private let overflow: BoundedQueue<EncodedPacket>.OverflowPolicy
    private let done = DispatchSemaphore(value: 0)
    /// Whether `start` ran (under `lock`): `finish` waits for the thread only then.
    private var started = false
    private let lock = NSLock()
    private var failure: (any Error)?
    // Under `lock`: what waits for the sink.
    private var pendingBytes = 0
    private var newestTime: Double?
    private var newestVideoTime: MediaTime?
    private var writingTime: Double?
    private var writing = false
    private var written = 0
    private let beforeWrite: BeforeWrite?
    /// Told once, on the sink's thread, when the sink first fails.
    private let failed: (@Sendable (any Error) -> Void)?

    /// `dropWhenFull` suits network sinks that must not stall the session; files wait instead.
    /// `failed` hears about the sink's first error at once (the runner then drains without writing).
    init(
        sink: any PacketSink, capacity: Int, dropWhenFull: Bool, beforeWrite: BeforeWrite? = nil,
        failed: (@Sendable (any Error) -> Void)? = nil
    ) {
        self.sink = sink
        self.failed = failed
        self.beforeWrite = beforeWrite
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
        lock.withLock { started = true }
        let thread = Thread { [self] in
            while let packet = queue.pop() {
                lock.lock()
                writing = true
                writingTime = packet.dts.seconds
                let newest = newestTime.map { (time: $0, video: newestVideoTime) }
                lock.unlock()
                beforeWrite?(packet, newest)
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
        guard lock.withLock({ started }) else {
            // Never started (a session stopped before it ran): no thread to wait for.
            do { try sink.finish() } catch { record(error) }
            return
        }
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
