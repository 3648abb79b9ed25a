import Foundation
import OnAir

/// Runs a started-up `LiveSession` for `record` and `stream`: starts it (removing the outputs if a
/// source cannot open), shows statistics once a second, stops on the duration, a signal or an
/// error, and returns the final statistics after the encoders have drained.
enum SessionDriver {
    /// Why the session stopped, its totals, and the outputs that failed while the others went on.
    struct Outcome {
        var reason: String
        var statistics: LiveStatistics
        var failedOutputs: OutputsFailedError?

        /// Exit status 0, or, when outputs failed, the error naming them (exit status 1).
        func finish() throws -> Int32 {
            if let failedOutputs { throw failedOutputs }
            return 0
        }
    }

    /// The one line printed the moment an output fails.
    static func report(_ failure: OutputFailure) {
        Console.status("output failed: \(failure.destination): \(failure.reason) (the other outputs carry on)")
    }

    static func run(_ session: LiveSession, printer: StatisticsPrinter, outputs: [String],
                    afterStart: () -> Void = {}, everySecond: (LiveStatistics) -> Void = { _ in }) throws -> Outcome {
        let signals = SignalWatcher()
        do {
            try session.start()
        } catch {
            // A source that cannot open leaves no empty output files behind.
            for output in outputs { try? FileManager.default.removeItem(atPath: output) }
            throw error
        }
        if let summary = session.videoEncoderSummary { Console.status("video: \(summary)") }
        afterStart()
        var reason = "duration reached"
        while true {
            if session.waitForSources(timeout: 1) { break }
            let statistics = session.statistics()
            printer.show(statistics)
            everySecond(statistics)
            if let signal = signals.received {
                reason = signal == SIGINT ? "interrupted" : "terminated"
                break
            }
            if session.error != nil {
                reason = "error"
                break
            }
        }
        // Stopping drains the queues and flushes the encoders; the totals come after that.
        let stopError: (any Error)?
        var failedOutputs: OutputsFailedError?
        do {
            try session.stop()
            stopError = nil
        } catch let error as OutputsFailedError where reason != "error" {
            // Some outputs failed, the others are complete: the caller reports both.
            stopError = nil
            failedOutputs = error
        } catch {
            stopError = error
        }
        let last = session.statistics()
        printer.end(final: last)
        if let stopError { throw stopError }
        return Outcome(reason: reason, statistics: last, failedOutputs: failedOutputs)
    }
}
