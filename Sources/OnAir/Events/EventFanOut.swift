import Foundation
import OnAirCore

/// Hands each event to the handler and to every subscriber's `EventStream`, from whichever
/// thread the event happened on; finishing ends every stream.
final class EventFanOut<Event: Sendable>: Sendable {
    private struct State {
        var buffers: [Int: EventBuffer<Event>] = [:]
        var nextID = 0
        var finished = false
        /// Sees every event before the handler (the session wakes its monitor on a failed output).
        var observer: (@Sendable (Event) -> Void)?
    }
    private let state = Locked(State())
    private let handler: (@Sendable (Event) -> Void)?
    private let kinds: EventKinds<Event>

    init(handler: (@Sendable (Event) -> Void)?, kinds: EventKinds<Event>) {
        self.handler = handler
        self.kinds = kinds
    }

    /// A new stream of the events from now on (see `EventStream` for what a slow reader keeps).
    func stream(capacity: Int = EventStream<Event>.capacity) -> EventStream<Event> {
        let buffer = EventBuffer(capacity: capacity, kinds: kinds)
        let id: Int? = state.withLock { state in
            if state.finished { return nil }
            let id = state.nextID
            state.nextID += 1
            state.buffers[id] = buffer
            return id
        }
        guard let id else {
            buffer.finish()
            return EventStream(buffer: buffer)
        }
        buffer.onTermination = { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.buffers[id] = nil }
        }
        return EventStream(buffer: buffer)
    }

    func observe(_ observer: @escaping @Sendable (Event) -> Void) {
        state.withLock { $0.observer = observer }
    }

    func send(_ event: Event) {
        let observer = state.withLock { $0.observer }
        observer?(event)
        handler?(event)
        let targets = state.withLock { Array($0.buffers.values) }
        for buffer in targets { buffer.add(event) }
    }

    func finish() {
        let targets = state.withLock { state in
            state.finished = true
            defer { state.buffers = [:] }
            return Array(state.buffers.values)
        }
        for buffer in targets { buffer.finish() }
    }
}

/// A session's fan-out: statistics coalesce, output failures stay.
typealias SessionEventFanOut = EventFanOut<SessionEvent>

extension EventFanOut where Event == SessionEvent {
    convenience init(handler: (@Sendable (SessionEvent) -> Void)?) {
        self.init(
            handler: handler,
            kinds: EventKinds(
                isStatistics: {
                    if case .statistics = $0 { return true }
                    return false
                },
                isPinned: {
                    if case .outputFailed = $0 { return true }
                    return false
                }))
    }
}
