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

    /// `dropWhenFull` suits network sinks that must not stall the session; files wait instead.
    init(sink: any PacketSink, capacity: Int, dropWhenFull: Bool) {
        self.sink = sink
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
        queue.push(packet, overflow: overflow)
    }

    /// Closes the queue and waits until the sink has written everything and finished.
    func finish() {
        queue.close()
        done.wait()
    }

    private func record(_ error: any Error) {
        lock.lock()
        if failure == nil { failure = error }
        lock.unlock()
    }
}
