#if os(Linux)
import Foundation
import OnAirCore
import OnAirFFmpeg

extension NetworkSink {
    /// The connector thread: waits until a connection is wanted and every stream's format is
    /// known, connects (within the connect timeout; a listener waits for its peer), hands the new
    /// connection to the writing thread, and after a failure retries with the policy's back-off
    /// (the first failure of a caller that never connected is fatal, with its reason).
    func runConnector() {
        var failures = 0
        while true {
            condition.lock()
            while !finishing && (!wantConnection || !streams.allSatisfy({ descriptions[$0] != nil })) {
                condition.wait()
            }
            if finishing {
                condition.unlock()
                return
            }
            let known = descriptions
            let pacing = pacingBitRate
            let deadline = NetworkDeadline()
            attemptDeadline = deadline
            condition.unlock()

            deadline.arm(seconds: target.isListener ? .infinity : policy.connectTimeout)
            do {
                let (connection, newProbe) = try connector.connect(known: known, deadline: deadline, pacingBitRate: pacing)
                condition.lock()
                attemptDeadline = nil
                if finishing {
                    condition.unlock()
                    connection.abandon()
                    return
                }
                readyProbe = newProbe
                let reconnect = ledger.connected(at: Self.now)
                wantConnection = false
                ready = connection
                let requestKeyFrame = keyFrameRequester
                condition.unlock()
                failures = 0
                requestKeyFrame?()
                events?(.connected(reconnect: reconnect))
            } catch {
                condition.lock()
                attemptDeadline = nil
                let stopping = finishing
                if !ledger.everConnected && !target.isListener && !stopping {
                    fatal = wording.classify(error)
                    condition.unlock()
                    return
                }
                condition.unlock()
                if stopping { return }
                failures += 1
                let delay = policy.delay(afterFailures: failures)
                events?(.attemptFailed(reason: wording.describe(error), retryIn: .seconds(delay)))
                condition.lock()
                let until = Date().addingTimeInterval(delay)
                while !finishing && condition.wait(until: until) {}
                condition.unlock()
            }
        }
    }
}
#endif
