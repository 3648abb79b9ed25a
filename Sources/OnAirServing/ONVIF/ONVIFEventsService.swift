#if os(Linux)
import Foundation
import OnAirCore

/// The events service (`/onvif/events_service`, `tev:`) with the motion detector as its one
/// source: PullPoint subscriptions (`CreatePullPointSubscription`, then at the subscription's own
/// address `PullMessages` with its long poll, `Renew`, `Unsubscribe`, `SetSynchronizationPoint`),
/// `GetEventProperties` and `GetServiceCapabilities` (`WSPullPointSupport`). Base notification
/// (`Subscribe`, a push to the client's address) answers `ter:ActionNotSupported`, so clients fall
/// back to PullPoint. Each change is two messages, as cameras send them:
/// `tns1:RuleEngine/CellMotionDetector/Motion` (`IsMotion`) and `tns1:VideoSource/MotionAlarm` (`State`).
package enum ONVIFEventsService {
    /// The path of the service; subscriptions live under `pullPointPrefix` + their id.
    package static let path = "/onvif/events_service"
    /// Where each subscription is addressed.
    package static let pullPointPrefix = "/onvif/events_service/pullpoint/"
    /// The topic dialect of the messages.
    static let dialect = "http://www.onvif.org/ver10/tev/topicExpression/ConcreteSet"
    /// The subscription length granted when the client asks for none, in seconds.
    static let defaultTermination = 60.0
    /// The video analytics configuration and rule the cell motion messages name.
    static let analytics = "motion-analytics", rule = "MotionDetectorRule"

    /// The answer to `operation` posted to `path` (the service, or a subscription's address).
    package static func answer(
        _ operation: SOAPElement, path: String, _ context: ONVIFContext, events: ONVIFEvents, wall: Date
    ) throws(ONVIFSOAP.Fault) -> String {
        if path.hasPrefix(pullPointPrefix) {
            return try subscription(operation, id: String(path.dropFirst(pullPointPrefix.count)), events: events, wall: wall)
        }
        switch operation.name {
        case "GetServiceCapabilities":
            return "<tev:GetServiceCapabilitiesResponse>\(capabilities)</tev:GetServiceCapabilitiesResponse>"
        case "GetEventProperties":
            return eventProperties
        case "CreatePullPointSubscription":
            let asked = operation.childValue("InitialTerminationTime").flatMap { ONVIFTime.seconds(termination: $0, now: wall) }
            var random = SystemRandomNumberGenerator()
            let id = (0..<2).map { _ in String(format: "%016llx", random.next() as UInt64) }.joined()
            let expiry: Double
            do {
                expiry = try events.withSubscriptions { (subscriptions) throws(ONVIFSubscriptions.Refusal) in
                    try subscriptions.create(id: id, seconds: asked ?? defaultTermination, now: events.now)
                }
            } catch {
                throw ONVIFSOAP.Fault(
                    code: "Receiver", subcodes: ["Action", "TooManySubscriptions"],
                    reason: "every PullPoint subscription is taken (at most 16): unsubscribe or let one expire", status: 500)
            }
            return "<tev:CreatePullPointSubscriptionResponse><tev:SubscriptionReference>"
                + ONVIFSOAP.element("wsa:Address", context.base + pullPointPrefix + id) + "</tev:SubscriptionReference>"
                + times(wall: wall, expiry: expiry, now: events.now, prefix: "wsnt") + "</tev:CreatePullPointSubscriptionResponse>"
        case "Subscribe":
            throw ONVIFSOAP.Fault(
                code: "Receiver", subcodes: ["ActionNotSupported"],
                reason: "Optional Action Not Implemented: Subscribe (base notification); use CreatePullPointSubscription", status: 500)
        default:
            throw .actionNotSupported(operation.name)
        }
    }

    /// An operation on subscription `id`.
    private static func subscription(
        _ operation: SOAPElement, id: String, events: ONVIFEvents, wall: Date
    ) throws(ONVIFSOAP.Fault) -> String {
        do {
            switch operation.name {
            case "Renew":
                let asked = operation.childValue("TerminationTime").flatMap { ONVIFTime.seconds(termination: $0, now: wall) }
                let expiry = try events.withSubscriptions { (subscriptions) throws(ONVIFSubscriptions.Refusal) in
                    try subscriptions.renew(id, seconds: asked ?? defaultTermination, now: events.now)
                }
                let times = times(wall: wall, expiry: expiry, now: events.now, prefix: "wsnt", renew: true)
                return "<wsnt:RenewResponse>\(times)</wsnt:RenewResponse>"
            case "Unsubscribe":
                try events.withSubscriptions { (subscriptions) throws(ONVIFSubscriptions.Refusal) in
                    try subscriptions.unsubscribe(id, now: events.now)
                }
                return "<wsnt:UnsubscribeResponse/>"
            case "SetSynchronizationPoint":
                try events.withSubscriptions { (subscriptions) throws(ONVIFSubscriptions.Refusal) in
                    try subscriptions.synchronize(id, now: events.now)
                }
                return "<tev:SetSynchronizationPointResponse/>"
            default:
                throw ONVIFSOAP.Fault.actionNotSupported(operation.name)
            }
        } catch let fault as ONVIFSOAP.Fault {
            throw fault
        } catch {
            throw unknown
        }
    }

    /// The fault of an operation on a subscription that is not (or no longer) there.
    static let unknown = ONVIFSOAP.Fault(
        code: "Sender", subcodes: ["InvalidArgVal", "ResourceUnknown"],
        reason: "no such subscription (unsubscribed or expired): create a new one", status: 400)

    /// PullMessages posted to subscription `id`: `respond` hears the answer body (or the fault of
    /// a subscription that ended meanwhile) once the long poll ends, maybe before this returns.
    /// Returns the pull's ticket (for `ONVIFEvents.cancel`); throws the fault of a missing
    /// Timeout or an unknown subscription, without responding.
    package static func pullMessages(
        _ operation: SOAPElement, id: String, events: ONVIFEvents, wall: @escaping @Sendable () -> Date,
        respond: @escaping @Sendable (Result<String, ONVIFSOAP.Fault>) -> Void
    ) throws(ONVIFSOAP.Fault) -> Int {
        guard let timeout = operation.childValue("Timeout").flatMap(ONVIFTime.seconds(duration:)), timeout >= 0 else {
            throw ONVIFSOAP.Fault.invalidArgument("InvalidTimeout", "PullMessages needs a Timeout (a duration such as PT10S)")
        }
        let limit = operation.childValue("MessageLimit").flatMap { Int($0) } ?? 1
        do {
            return try events.pull(id, timeout: timeout, limit: min(max(limit, 1), 1024)) { pulled in
                guard case .success(let messages) = pulled else { return respond(.failure(unknown)) }
                let expiry = events.expiry(of: id) ?? events.now
                respond(
                    .success(
                        "<tev:PullMessagesResponse>" + times(wall: wall(), expiry: expiry, now: events.now, prefix: "tev")
                            + messages.map(notifications).joined() + "</tev:PullMessagesResponse>"))
            }
        } catch {
            throw unknown
        }
    }

    /// `CurrentTime` then `TerminationTime` (Renew's schema puts TerminationTime first: `renew`).
    private static func times(wall: Date, expiry: Double, now: Double, prefix: String, renew: Bool = false) -> String {
        let current = ONVIFSOAP.element("\(prefix):CurrentTime", ONVIFTime.text(wall))
        let termination = ONVIFSOAP.element("\(prefix):TerminationTime", ONVIFTime.text(wall.addingTimeInterval(expiry - now)))
        return renew ? termination + current : current + termination
    }

    /// The service's `tev:Capabilities`.
    static let capabilities =
        "<tev:Capabilities WSSubscriptionPolicySupport=\"false\" WSPullPointSupport=\"true\""
        + " WSPausableSubscriptionManagerInterfaceSupport=\"false\" MaxNotificationProducers=\"0\" MaxPullPoints=\"16\""
        + " PersistentNotificationStorage=\"false\"/>"

    /// The two notification messages of one change.
    static func notifications(_ message: ONVIFSubscriptions.Message) -> String {
        let time = ONVIFTime.text(message.at)
        let operation = message.initialized ? "Initialized" : "Changed"
        let value = message.isMotion ? "true" : "false"
        let source = ONVIFMediaService.videoSource, configuration = ONVIFMediaService.videoSourceConfiguration
        func wrap(_ topic: String, _ sourceItems: String, _ data: String) -> String {
            "<wsnt:NotificationMessage><wsnt:Topic Dialect=\"\(dialect)\">\(topic)</wsnt:Topic><wsnt:Message>"
                + "<tt:Message UtcTime=\"\(time)\" PropertyOperation=\"\(operation)\"><tt:Source>\(sourceItems)</tt:Source>"
                + "<tt:Data>\(data)</tt:Data></tt:Message></wsnt:Message></wsnt:NotificationMessage>"
        }
        return wrap(
            "tns1:RuleEngine/CellMotionDetector/Motion",
            "<tt:SimpleItem Name=\"VideoSourceConfigurationToken\" Value=\"\(configuration)\"/>"
                + "<tt:SimpleItem Name=\"VideoAnalyticsConfigurationToken\" Value=\"\(analytics)\"/>"
                + "<tt:SimpleItem Name=\"Rule\" Value=\"\(rule)\"/>",
            "<tt:SimpleItem Name=\"IsMotion\" Value=\"\(value)\"/>")
            + wrap(
                "tns1:VideoSource/MotionAlarm", "<tt:SimpleItem Name=\"Source\" Value=\"\(source)\"/>",
                "<tt:SimpleItem Name=\"State\" Value=\"\(value)\"/>")
    }

    /// GetEventProperties' answer: the two topics and their message descriptions.
    static let eventProperties: String = {
        func description(_ source: [(String, String)], _ data: (String, String)) -> String {
            "<tt:MessageDescription IsProperty=\"true\"><tt:Source>"
                + source.map { "<tt:SimpleItemDescription Name=\"\($0.0)\" Type=\"\($0.1)\"/>" }.joined()
                + "</tt:Source><tt:Data><tt:SimpleItemDescription Name=\"\(data.0)\" Type=\"\(data.1)\"/></tt:Data>"
                + "</tt:MessageDescription>"
        }
        let cell = description(
            [
                ("VideoSourceConfigurationToken", "tt:ReferenceToken"), ("VideoAnalyticsConfigurationToken", "tt:ReferenceToken"),
                ("Rule", "xs:string"),
            ],
            ("IsMotion", "xs:boolean"))
        let alarm = description([("Source", "tt:ReferenceToken")], ("State", "xs:boolean"))
        return "<tev:GetEventPropertiesResponse>"
            + "<tev:TopicNamespaceLocation>http://www.onvif.org/onvif/ver10/topics/topicns.xml</tev:TopicNamespaceLocation>"
            + "<wsnt:FixedTopicSet>true</wsnt:FixedTopicSet><wstop:TopicSet>"
            + "<tns1:RuleEngine wstop:topic=\"false\"><tns1:CellMotionDetector wstop:topic=\"false\"><tns1:Motion wstop:topic=\"true\">"
            + cell + "</tns1:Motion></tns1:CellMotionDetector></tns1:RuleEngine>"
            + "<tns1:VideoSource wstop:topic=\"false\"><tns1:MotionAlarm wstop:topic=\"true\">" + alarm
            + "</tns1:MotionAlarm></tns1:VideoSource></wstop:TopicSet>"
            + "<wsnt:TopicExpressionDialect>\(dialect)</wsnt:TopicExpressionDialect>"
            + "<wsnt:TopicExpressionDialect>http://docs.oasis-open.org/wsn/t-1/TopicExpression/Concrete</wsnt:TopicExpressionDialect>"
            + "<tev:MessageContentFilterDialect>http://www.onvif.org/ver10/tev/messageContentFilter/ItemFilter</tev:MessageContentFilterDialect>"
            + "<tev:MessageContentSchemaLocation>http://www.onvif.org/onvif/ver10/schema/onvif.xsd</tev:MessageContentSchemaLocation>"
            + "</tev:GetEventPropertiesResponse>"
    }()
}
#endif
