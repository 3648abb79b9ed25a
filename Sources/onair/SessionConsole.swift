#if os(Linux)
import Foundation
import OnAir

/// Prints a session's events for `record`, `stream` and `serve` and runs it until the duration,
/// the end of the sources, Ctrl-C or SIGTERM; the recipe itself is the library's `SessionBuilder`.
enum SessionConsole {
    /// The one line printed the moment an output fails.
    static func report(_ failure: OutputFailure) {
        Console.status("output failed: \(failure.destination): \(failure.reason) (the other outputs carry on)")
    }

    /// Builds the session with `builder`, prints the encoder choice and `afterStart`'s lines,
    /// shows statistics once a second and every event as it happens, and returns the outcome.
    static func run(
        _ builder: SessionBuilder, printer: StatisticsPrinter,
        afterStart: (Session) -> Void = { _ in }
    ) throws -> SessionOutcome {
        let signals = SignalWatcher()
        // Woken by the session's `.stopped` (it ended by itself) or by SIGINT/SIGTERM.
        let done = DispatchSemaphore(value: 0)
        let builder = builder.onEvent { event in
            show(event, printer: printer)
            if case .stopped = event { done.signal() }
        }
        let session = try Blocking.wait { try await builder.build() }
        try session.start()
        if let summary = session.videoEncoderSummary { Console.status("video: \(summary)") }
        afterStart(session)
        signals.whenReceived { done.signal() }
        done.wait()
        let outcome: SessionOutcome
        do {
            outcome = try session.stop(reason: signals.received.map { .interrupted(signal: $0) } ?? .cancelled)
        } catch {
            printer.end(final: nil)
            throw error
        }
        printer.end(final: outcome.statistics)
        return outcome
    }

    private static func show(_ event: SessionEvent, printer: StatisticsPrinter) {
        switch event {
        case .statistics(let statistics): printer.show(statistics)
        case .outputFailed(let failure): report(failure)
        case .bitRateChanged(let decision): Console.status(decision.summary)
        case .notice(let text): Console.status(text)
        case .clockStepped(let step):
            let seconds = String(format: "%.3f", abs(Double(step.components.seconds) + Double(step.components.attoseconds) / 1e18))
            Console.status(
                "clock: the wall clock stepped \(step > .zero ? "forward" : "back") \(seconds) s; recording starts and ages keep to the monotonic time line"
            )
        case let .motion(isMotion, at):
            let seconds = Double(at.components.seconds) + Double(at.components.attoseconds) / 1e18
            Console.status("motion: \(isMotion ? "started" : "ended") at \(String(format: "%.1f", seconds)) s")
        case let .connection(destination, event): Console.status(describe(event, destination: destination))
        case let .viewer(.left(id, transport, peer, cut?)):
            Console.status("viewer \(id) (\(transport), \(peer)) cut: \(cut)")
        case .viewer, .stopped: break
        }
    }

    private static func describe(_ event: ConnectionChange, destination: String) -> String {
        "\(destination): \(event)"
    }
}
#endif
