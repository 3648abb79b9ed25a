#if os(Linux)
import Dispatch
import Foundation
import OnAirCore
import OnAirServing
import OnAirTestSupport
import Testing

/// The ONVIF events service without a listener or a sleep: `ONVIFSubscriptions` (bounded
/// queues, expiry, renewal, tickets) on an injected monotonic clock, `ONVIFTime`'s durations and
/// date-times, `ONVIFEvents`' long poll (a change from another thread ends it, a newer pull ends
/// an older one, a deadline passes on the injected clock, closing ends them all) and the SOAP
/// answers through `ONVIFService`, with the events advertised by GetCapabilities and GetServices.
@Suite struct ONVIFEventsTests {
    static let start = Date(timeIntervalSince1970: 1_796_407_200)

    @Test func aSubscriptionGetsTheStateThenEachChangeInOrder() throws {
        var subscriptions = ONVIFSubscriptions(start: Self.start)
        let expiry = try subscriptions.create(id: "a", seconds: 60, now: 100)
        #expect(expiry == 160)
        subscriptions.publish(isMotion: true, at: Self.start.addingTimeInterval(5))
        subscriptions.publish(isMotion: false, at: Self.start.addingTimeInterval(9))
        let first = try subscriptions.take("a", limit: 2, now: 101)
        #expect(first.map(\.initialized) == [true, false] && first.map(\.isMotion) == [false, true])
        let rest = try subscriptions.take("a", limit: 10, now: 102)
        #expect(rest.map(\.isMotion) == [false] && rest.first?.at == Self.start.addingTimeInterval(9))
        #expect(try subscriptions.take("a", limit: 10, now: 103).isEmpty)
        // A synchronization point queues the state as it is.
        try subscriptions.synchronize("a", now: 104)
        let state = try subscriptions.take("a", limit: 10, now: 105)
        #expect(state == [.init(isMotion: false, at: Self.start.addingTimeInterval(9), initialized: true)])
    }

    @Test func subscriptionsExpireRenewAndEnd() throws {
        var subscriptions = ONVIFSubscriptions(start: Self.start)
        _ = try subscriptions.create(id: "a", seconds: 1, now: 0)  // clamped to 10 s
        #expect(subscriptions.expiry(of: "a") == 10)
        #expect(try subscriptions.renew("a", seconds: 30, now: 9) == 39)
        #expect(subscriptions.count(now: 38.9) == 1)
        #expect(throws: ONVIFSubscriptions.Refusal.unknown) { try subscriptions.take("a", limit: 1, now: 39) }
        _ = try subscriptions.create(id: "b", seconds: .infinity, now: 0)  // clamped to an hour
        #expect(subscriptions.expiry(of: "b") == 3600)
        try subscriptions.unsubscribe("b", now: 1)
        #expect(throws: ONVIFSubscriptions.Refusal.unknown) { try subscriptions.unsubscribe("b", now: 2) }
        #expect(throws: ONVIFSubscriptions.Refusal.unknown) { try subscriptions.renew("b", seconds: 60, now: 2) }
    }

    @Test func subscriptionsAndTheirQueuesAreBounded() throws {
        var subscriptions = ONVIFSubscriptions(start: Self.start)
        for index in 0..<subscriptions.maximumSubscriptions { _ = try subscriptions.create(id: "\(index)", seconds: 60, now: 0) }
        #expect(throws: ONVIFSubscriptions.Refusal.full) { try subscriptions.create(id: "x", seconds: 60, now: 1) }
        // An expired one makes room.
        _ = try subscriptions.renew("0", seconds: 10, now: 0)
        _ = try subscriptions.create(id: "x", seconds: 60, now: 11)
        for index in 0..<100 { subscriptions.publish(isMotion: index % 2 == 0, at: Self.start) }
        let kept = try subscriptions.take("x", limit: 1000, now: 12)
        #expect(kept.count == subscriptions.maximumQueued)
        #expect(kept.last?.isMotion == false && subscriptions.dropped > 0)
    }

    @Test func aNewerPullTakesTheTicket() throws {
        var subscriptions = ONVIFSubscriptions(start: Self.start)
        _ = try subscriptions.create(id: "a", seconds: 60, now: 0)
        let older = try subscriptions.beginPull("a", now: 1)
        #expect(subscriptions.isCurrent("a", ticket: older))
        let newer = try subscriptions.beginPull("a", now: 2)
        #expect(!subscriptions.isCurrent("a", ticket: older) && subscriptions.isCurrent("a", ticket: newer))
        #expect(throws: ONVIFSubscriptions.Refusal.unknown) { try subscriptions.beginPull("b", now: 3) }
    }

    @Test func durationsAndDateTimes() {
        #expect(ONVIFTime.seconds(duration: "PT60S") == 60)
        #expect(ONVIFTime.seconds(duration: "PT1M30S") == 90)
        #expect(ONVIFTime.seconds(duration: "P1DT1H") == 90_000)
        #expect(ONVIFTime.seconds(duration: "PT0.5S") == 0.5)
        #expect(ONVIFTime.seconds(duration: "-PT5S") == -5)
        for bad in ["", "P", "PT", "60", "PT5", "P5H", "PTS", "PT1.2.3S", String(repeating: "P", count: 100), "PT99999999999S"] {
            #expect(ONVIFTime.seconds(duration: bad) == nil, "\(bad)")
        }
        #expect(ONVIFTime.date("2026-12-04T18:00:00Z") == Date(timeIntervalSince1970: 1_796_407_200))
        #expect(ONVIFTime.date("2026-12-04T19:00:00.5+01:00") == Date(timeIntervalSince1970: 1_796_407_200.5))
        #expect(ONVIFTime.date("2026-12-04T18:00:00") == Date(timeIntervalSince1970: 1_796_407_200))
        for bad in ["2026-13-04T18:00:00Z", "2026-12-04T18:00:00Q", "2026-12-04T18:00:00.Z", "x"] {
            #expect(ONVIFTime.date(bad) == nil, "\(bad)")
        }
        #expect(ONVIFTime.text(Date(timeIntervalSince1970: 1_796_407_200)) == "2026-12-04T18:00:00Z")
        #expect(ONVIFTime.seconds(termination: "2026-12-04T18:01:00Z", now: Self.start) == 60)
        #expect(ONVIFTime.seconds(termination: "PT2M", now: Self.start) == 120)
    }

    /// A clock the test moves.
    final class TestClock: Sendable {
        let time = Locked(0.0)
        var read: @Sendable () -> Double { { [time] in time.current } }
    }

    /// Pulls `id`, the outcome kept where the test reads it once answered.
    static func pull(_ events: ONVIFEvents, _ id: String, timeout: Double) throws -> Locked<ONVIFEvents.Pulled?> {
        let outcome = Locked<ONVIFEvents.Pulled?>(nil)
        try events.pull(id, timeout: timeout, limit: 10) { answered in outcome.withLock { $0 = answered } }
        return outcome
    }

    static func subscribe(_ events: ONVIFEvents, _ ids: [String]) throws {
        for id in ids {
            _ = try events.withSubscriptions { (subscriptions) throws(ONVIFSubscriptions.Refusal) in
                try subscriptions.create(id: id, seconds: 60, now: 0)
            }
        }
    }

    @Test func aPullWaitsForAChangeFromAnotherThread() throws {
        let events = ONVIFEvents(wall: Self.start, uptime: TestClock().read)
        try Self.subscribe(events, ["a"])
        let first = try Self.pull(events, "a", timeout: 10)  // answered at once: the state is queued
        #expect((try first.current?.get())?.map(\.initialized) == [true])
        let pulled = try Self.pull(events, "a", timeout: 60)
        #expect(pulled.current == nil && events.waiting == 1)
        Thread.detachNewThread { events.publish(isMotion: true, at: Self.start.addingTimeInterval(1)) }
        #expect(waitUntil(timeout: 30) { pulled.current != nil })
        #expect((try pulled.current?.get())?.map(\.isMotion) == [true])
        #expect(events.waiting == 0)
    }

    @Test func aNewerPullAnUnsubscribeOrTheCloseEndsAWaitingOneEmpty() throws {
        let events = ONVIFEvents(wall: Self.start, uptime: TestClock().read)
        try Self.subscribe(events, ["a", "b", "c", "d"])
        for id in ["a", "b", "c", "d"] { _ = try Self.pull(events, id, timeout: 0) }
        let waiting = try ["a", "b", "c", "d"].map { try Self.pull(events, $0, timeout: 60) }
        #expect(events.waiting == 4 && waiting.allSatisfy { $0.current == nil })
        // A newer pull on "a" (answered at once: no wait) ends the older one's wait.
        let newer = try Self.pull(events, "a", timeout: 0)
        #expect((try newer.current?.get())?.isEmpty == true)
        #expect((try waiting[0].current?.get())?.isEmpty == true)
        // Unsubscribing "b" ends its pull; "c"'s client leaves (its pull is withdrawn unanswered).
        try events.withSubscriptions { (subscriptions) throws(ONVIFSubscriptions.Refusal) in try subscriptions.unsubscribe("b", now: 1) }
        #expect((try waiting[1].current?.get())?.isEmpty == true)
        let ticket = try events.pull("c", timeout: 60, limit: 10) { _ in Issue.record("a withdrawn pull was answered") }
        events.cancel("c", ticket: ticket)
        #expect(events.waiting == 1)
        events.close()
        #expect((try waiting[3].current?.get())?.isEmpty == true)
        #expect(events.waiting == 0)
        // Once closed, a pull is answered at once.
        #expect((try Self.pull(events, "d", timeout: 60).current?.get())?.isEmpty == true)
    }

    @Test func aPullEndsAtItsDeadlineOnTheInjectedClock() throws {
        let clock = TestClock()
        let events = ONVIFEvents(wall: Self.start, uptime: clock.read)
        _ = try events.withSubscriptions { (subscriptions) throws(ONVIFSubscriptions.Refusal) in
            try subscriptions.create(id: "a", seconds: 3600, now: 0)
        }
        _ = try Self.pull(events, "a", timeout: 0)
        let pulled = try Self.pull(events, "a", timeout: 600)  // capped at 60 s
        #expect(pulled.current == nil)
        clock.time.withLock { $0 = 59 }
        letTimePass(1.5, "a look at the deadline before it is due leaves the pull waiting")
        #expect(pulled.current == nil && events.waiting == 1)
        clock.time.withLock { $0 = 60 }
        #expect(waitUntil(timeout: 30) { pulled.current != nil })
        #expect((try pulled.current?.get())?.isEmpty == true)
        // An unknown subscription is refused at once, unanswered.
        #expect(throws: ONVIFSubscriptions.Refusal.unknown) { try events.pull("z", timeout: 1, limit: 1) { _ in } }
    }

    // MARK: SOAP

    static func service(events: ONVIFEvents?) -> ONVIFService {
        let video = VideoEncoderSettings(width: 1280, height: 720, expectedFrameRate: 30, averageBitRate: 2_000_000)
        let profiles = [ONVIFProfile(token: "main", path: "live", video: video, audio: nil, sourceWidth: 1280, sourceHeight: 720)]
        let identity = ONVIFIdentity(stateDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("onvif-\(UUID())").path)
        return ONVIFService(
            configuration: ONVIFConfiguration(), profiles: profiles, identity: identity,
            rtsp: .init(port: 8554, tlsPort: nil, plainOnLoopbackOnly: false), secure: false, listener: "127.0.0.1:8080",
            access: ServeAccessPolicy(tokens: ["s3cret"], log: { _ in }), wall: { start }, uptime: { 0 }, events: events)
    }

    /// Posts `body` with a UsernameToken of a fresh nonce.
    static func post(_ service: ONVIFService, _ path: String, _ body: String) -> (Int, String) {
        ONVIFServiceTests.post(service, path, ONVIFServiceTests.envelope(body, password: "s3cret", nonce: UUID().uuidString))
    }

    @Test func theDeviceAdvertisesTheEventsOnlyWithMotion() {
        for events in [ONVIFEvents(wall: Self.start, uptime: { 0 }), nil] {
            let service = Self.service(events: events)
            let (_, capabilities) = Self.post(service, "/onvif/device_service", "<GetCapabilities/>")
            let (_, services) = Self.post(
                service, "/onvif/device_service", "<GetServices><IncludeCapability>true</IncludeCapability></GetServices>")
            let advertised = "<tt:Events><tt:XAddr>http://192.0.2.7:8080/onvif/events_service</tt:XAddr>"
            #expect(capabilities.contains(advertised) == (events != nil))
            #expect(capabilities.contains("<tt:WSPullPointSupport>true</tt:WSPullPointSupport>") == (events != nil))
            #expect(services.contains("<tds:Namespace>\(ONVIFSOAP.events)</tds:Namespace>") == (events != nil))
            let (status, _) = Self.post(service, "/onvif/events_service", "<GetEventProperties/>")
            #expect(status == (events != nil ? 200 : 404))
        }
    }

    @Test func aPullPointSubscriptionThroughSOAP() throws {
        let events = ONVIFEvents(wall: Self.start, uptime: { 0 })
        let service = Self.service(events: events)
        let (_, capabilities) = ONVIFServiceTests.post(
            service, "/onvif/events_service", ONVIFServiceTests.envelope("<GetServiceCapabilities/>"))
        #expect(capabilities.contains("WSPullPointSupport=\"true\""))
        let (_, properties) = Self.post(service, "/onvif/events_service", "<GetEventProperties/>")
        #expect(properties.contains("<tns1:RuleEngine wstop:topic=\"false\"><tns1:CellMotionDetector"))
        #expect(properties.contains("<tt:SimpleItemDescription Name=\"IsMotion\" Type=\"xs:boolean\"/>"))
        #expect(properties.contains("<tns1:VideoSource wstop:topic=\"false\"><tns1:MotionAlarm"))
        let (status, created) = Self.post(
            service, "/onvif/events_service",
            "<CreatePullPointSubscription><InitialTerminationTime>PT120S</InitialTerminationTime></CreatePullPointSubscription>")
        #expect(status == 200)
        #expect(created.contains("<wsnt:CurrentTime>2026-12-04T18:00:00Z</wsnt:CurrentTime><wsnt:TerminationTime>2026-12-04T18:02:00Z"))
        let address = try #require(
            created.range(of: "http://192.0.2.7:8080/onvif/events_service/pullpoint/[0-9a-f]{32}", options: .regularExpression))
        let path = String(created[address].dropFirst("http://192.0.2.7:8080".count))
        events.publish(isMotion: true, at: Self.start.addingTimeInterval(3))
        let (_, pulled) = Self.post(service, path, "<PullMessages><Timeout>PT5S</Timeout><MessageLimit>10</MessageLimit></PullMessages>")
        let messages = try SOAPEnvelope(Array(pulled.utf8)).operation.children("NotificationMessage")
        #expect(messages.count == 4)
        #expect(
            messages.map { $0.childValue("Topic") } == [
                "tns1:RuleEngine/CellMotionDetector/Motion", "tns1:VideoSource/MotionAlarm",
                "tns1:RuleEngine/CellMotionDetector/Motion", "tns1:VideoSource/MotionAlarm",
            ])
        let last = try #require(messages.last?.descendant("Message")?.child("Message"))
        #expect(last.attribute("PropertyOperation") == "Changed" && last.attribute("UtcTime") == "2026-12-04T18:00:03Z")
        #expect(last.child("Data")?.child("SimpleItem")?.attribute("Name") == "State")
        #expect(last.child("Data")?.child("SimpleItem")?.attribute("Value") == "true")
        let (_, renewed) = Self.post(service, path, "<Renew><TerminationTime>PT30S</TerminationTime></Renew>")
        #expect(renewed.contains("<wsnt:RenewResponse><wsnt:TerminationTime>2026-12-04T18:00:30Z</wsnt:TerminationTime>"))
        let (_, synchronized) = Self.post(service, path, "<SetSynchronizationPoint/>")
        #expect(synchronized.contains("SetSynchronizationPointResponse"))
        let (_, state) = Self.post(service, path, "<PullMessages><Timeout>PT0S</Timeout><MessageLimit>10</MessageLimit></PullMessages>")
        #expect(state.contains("PropertyOperation=\"Initialized\"") && state.contains("Name=\"IsMotion\" Value=\"true\""))
        let (_, ended) = Self.post(service, path, "<Unsubscribe/>")
        #expect(ended.contains("<wsnt:UnsubscribeResponse/>"))
        let (gone, fault) = Self.post(service, path, "<PullMessages><Timeout>PT0S</Timeout><MessageLimit>1</MessageLimit></PullMessages>")
        #expect(gone == 400 && fault.contains("ter:ResourceUnknown"))
        // Base notification: a fault, so clients fall back to PullPoint.
        let (_, subscribe) = Self.post(service, "/onvif/events_service", "<Subscribe><ConsumerReference/></Subscribe>")
        #expect(subscribe.contains("ter:ActionNotSupported"))
        // The subscription operations need credentials.
        let (refused, _) = ONVIFServiceTests.post(service, path, ONVIFServiceTests.envelope("<Unsubscribe/>"))
        #expect(refused == 401)
    }
}
#endif
