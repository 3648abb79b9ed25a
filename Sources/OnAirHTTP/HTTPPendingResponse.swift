#if os(Linux)
import OnAirCore

/// A response the handler cannot give yet (a blocking playlist reload, a long-polled
/// PullMessages): the handler returns `.pending(p)` at once and whoever has the answer later
/// calls `p.answer(_:)` from any thread.
///
/// The server sets the connection aside until then, holding no thread for it. `onCancel` runs
/// (once, on a server thread) if the connection's peer leaves first (seen within about a quarter
/// of a second) or the server stops; after it, `answer(_:)` does nothing. An answer given twice
/// keeps the first. A holder should answer by its own deadline: the server does not time a
/// pending response out (a connection set aside is not idle).
package final class HTTPPendingResponse: Sendable {
    private enum State {
        case waiting(onCancel: (@Sendable () -> Void)?, wake: (@Sendable () -> Void)?)
        case answered(HTTPResponse)
        case taken
        case cancelled
    }

    private let state = Locked<State>(.waiting(onCancel: nil, wake: nil))

    /// Creates a response still to be given.
    package init() {}

    /// Gives the response; the first call wins.
    package func answer(_ response: HTTPResponse) {
        let wake: (@Sendable () -> Void)?? = state.withLock { state in
            guard case .waiting(_, let wake) = state else { return nil }
            state = .answered(response)
            return .some(wake)
        }
        if let wake { wake?() }
    }

    /// Runs `action` if the request is given up before it is answered (at once if it already was).
    package func onCancel(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            switch state {
            case .waiting(_, let wake):
                state = .waiting(onCancel: action, wake: wake)
                return false
            case .cancelled: return true
            case .answered, .taken: return false
            }
        }
        if runNow { action() }
    }

    /// Whether an answer was given (and not yet taken by the server).
    package var isAnswered: Bool {
        state.withLock { if case .answered = $0 { true } else { false } }
    }

    // MARK: for the server

    /// Registers what the server does when the answer arrives; runs it at once if it is there.
    func whenAnswered(_ wake: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            switch state {
            case .waiting(let cancel, _):
                state = .waiting(onCancel: cancel, wake: wake)
                return false
            case .answered: return true
            case .taken, .cancelled: return false
            }
        }
        if now { wake() }
    }

    /// The answer, once; nil if there is none yet.
    func take() -> HTTPResponse? {
        state.withLock { state in
            guard case .answered(let response) = state else { return nil }
            state = .taken
            return response
        }
    }

    /// The connection went away before an answer.
    func cancel() {
        let action: (@Sendable () -> Void)? = state.withLock { state in
            guard case .waiting(let cancel, _) = state else { return nil }
            state = .cancelled
            return cancel
        }
        action?()
    }
}
#endif
