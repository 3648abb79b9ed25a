import Foundation

/// The suite's waits, all in one place: a test waits for an event through `waitUntil` (a
/// condition polled against a deadline), and lets time pass on purpose only through
/// `letTimePass` — media flowing for a stretch it then measures, a span in which it asserts that
/// nothing happens, a stand-in's own pace — saying why. `scripts/check-test-waits.sh` keeps every
/// other sleep out of the tests.

/// Polls `condition` every 50 ms until it holds or `timeout` seconds pass; whether it held.
public func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return condition()
}

/// Lets `seconds` of real time pass on purpose; `reason` says what the time is for (read in the
/// code, not printed).
public func letTimePass(_ seconds: Double, _ reason: StaticString) {
    _ = reason
    guard seconds > 0 else { return }
    Thread.sleep(forTimeInterval: seconds)
}

/// Lets real time pass until `date` on purpose (a stand-in source's own pace); `reason` as for
/// `letTimePass(_:_:)`.
public func letTimePass(until date: Date, _ reason: StaticString) {
    letTimePass(date.timeIntervalSinceNow, reason)
}
