#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

@testable import OnAirServing

/// sd_notify's datagram protocol against a socket of the test's own (a path and an abstract `@`
/// name), and the watchdog fed from frames with an injected clock.
@Suite struct SystemdNotifierTests {
    @Test(arguments: [false, true])
    func messagesReachThePathOrAbstractSocket(_ abstract: Bool) throws {
        let receiver = try DatagramReceiver(abstract: abstract)
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.name, "WATCHDOG_USEC": "2000000"]))
        #expect(notifier.watchdogInterval == 2)
        #expect(notifier.send("READY=1\nSTATUS=serving"))
        #expect(notifier.send("STOPPING=1"))
        #expect(receiver.messages() == ["READY=1\nSTATUS=serving", "STOPPING=1"])
    }

    @Test func noSocketOrAnotherProcessesWatchdogMeansNothingToDo() throws {
        #expect(SystemdNotifier(environment: [:]) == nil)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "relative/path"]) == nil)
        let receiver = try DatagramReceiver(abstract: true)
        let other = try #require(
            SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.name, "WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"]))
        #expect(other.watchdogInterval == nil)
    }

    @Test func theWatchdogIsFedByFramesAtLeastEveryHalfIntervalAndNotWithout() throws {
        let receiver = try DatagramReceiver(abstract: true)
        let notifier = try #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.name, "WATCHDOG_USEC": "1000000"]))
        let clock = ServeHealthMetricsTests.ManualClock()
        let watchdog = ServeWatchdog(
            notifier: notifier, interval: notifier.watchdogInterval, clock: { clock.now }, status: { "2 viewers, 30.0 fps" })
        // 3 s of frames at 30 fps: pings no closer than 0.25 s and no further apart than 0.5 s.
        var pings: [Double] = []
        var statuses = 0
        for _ in 0..<90 {
            watchdog.framePassed()
            for message in receiver.messages() {
                if message == "WATCHDOG=1" { pings.append(clock.now) }
                if message == "STATUS=2 viewers, 30.0 fps" { statuses += 1 }
            }
            clock.advance(1.0 / 30)
        }
        let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
        #expect(pings.count >= 6)
        #expect(gaps.allSatisfy { $0 >= 0.25 - 1e-9 && $0 <= 0.5 }, "\(gaps)")
        #expect(statuses == 3)
        // Frames stop (a stalled source): time passes, nothing is sent.
        clock.advance(3)
        #expect(receiver.messages().isEmpty)
    }
}
#endif
