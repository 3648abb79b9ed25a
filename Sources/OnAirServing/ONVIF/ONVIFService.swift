#if os(Linux)
import Foundation
import OnAirCore
import OnAirHTTP
import OnAirServeConfig
import Synchronization

/// The ONVIF services on the serve HTTP listener (`--onvif`): SOAP 1.2 POSTs to
/// `/onvif/device_service`, `/onvif/media_service`, `/onvif/media2_service` and, with motion
/// detection, `/onvif/events_service` and its subscriptions' addresses, and GETs of
/// `/onvif/snapshot/PROFILE.jpg`. Requests are read with `SOAPReader`'s bounds; anything that is
/// not a well-formed envelope gets a `ter:WellFormed` fault, an unknown operation (and every one
/// that would change the device) `ter:ActionNotSupported`.
///
/// Credentials: a WS-Security UsernameToken (digest; text over TLS only) or HTTP Digest, checked
/// by `ONVIFGate` against user `onair` with each `--token` as password and the users given a
/// device secret (`ONVIFConfiguration.deviceSecrets`, who must hold `read`). The operations ONVIF
/// lets a client make before authenticating are open (`openOperations`). Failures are counted by
/// the access policy's limiter and logged in its line (`onvif-wsse`, `onvif-digest`), never with
/// the credentials.
package final class ONVIFService: Sendable {
    /// The operations answered without credentials (ONVIF Core's pre-authentication list).
    package static let openOperations: Set<String> = [
        "GetWsdlUrl", "GetServices", "GetServiceCapabilities", "GetCapabilities", "GetHostname", "GetSystemDateAndTime",
        "GetEndpointReference",
    ]

    private let configuration: ONVIFConfiguration
    private let profiles: [ONVIFProfile]
    private let identity: ONVIFIdentity
    private let rtsp: ONVIFContext.RTSP
    private let secure: Bool
    private let listener: String
    /// The ONVIF listener's `host:port` (`--onvif-listen`), nil without one.
    private let ownListener: String?
    private let access: ServeAccessPolicy
    private let gate = Mutex(ONVIFGate(accounts: []))
    private let wall: @Sendable () -> Date
    private let uptime: @Sendable () -> Double
    /// The events service's subscriptions, nil without motion detection.
    private let events: ONVIFEvents?

    /// The services for `profiles` (main first), with the RTSP faces `rtsp`, on a listener at
    /// `listener` (`host:port`, the addresses' fallback when a request has no usable `Host`),
    /// over TLS when `secure`, admitting by `access`'s tokens and users; the events service over
    /// `events` when given; `ownListener` is the plain-HTTP ONVIF listener's `host:port` when
    /// there is one (`--onvif-listen`). The clocks are injected.
    package init(
        configuration: ONVIFConfiguration, profiles: [ONVIFProfile], identity: ONVIFIdentity, rtsp: ONVIFContext.RTSP,
        secure: Bool, listener: String, ownListener: String? = nil, access: ServeAccessPolicy,
        wall: @escaping @Sendable () -> Date = { Date() },
        uptime: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }, events: ONVIFEvents? = nil
    ) {
        self.events = events
        self.configuration = configuration
        self.profiles = profiles
        self.identity = identity
        self.rtsp = rtsp
        self.secure = secure
        self.listener = listener
        self.ownListener = ownListener
        self.access = access
        self.wall = wall
        self.uptime = uptime
    }

    /// Whether `path` is one of the ONVIF paths.
    package static func handles(_ path: String) -> Bool { path.hasPrefix("/onvif/") }

    /// The answer to `request` (a path `handles`), which came to the serve listener or, when
    /// `onOwnListener`, to the plain-HTTP ONVIF listener; `snapshot` gives a served path's JPEG answer.
    package func answer(_ request: HTTPRequest, onOwnListener: Bool = false, snapshot: (String) -> HTTPResponse) -> HTTPResponse {
        let context = context(for: request, onOwnListener: onOwnListener)
        let address = ServeAccessPolicy.address(ofPeer: request.peer)
        if request.method == "GET" || request.method == "HEAD" {
            let name = request.path.dropFirst("/onvif/snapshot/".count)
            guard request.path.hasPrefix("/onvif/snapshot/"), name.hasSuffix(".jpg"),
                let profile = profiles.first(where: { $0.token == name.dropLast(4) })
            else { return .text(404, "not found") }
            if let refusal = httpRefusal(request, address: address, secure: context.secure, fault: nil) { return refusal }
            return snapshot(profile.path)
        }
        guard request.method == "POST" else { return .text(405, "ONVIF services take POST") }
        let service: (SOAPElement) throws(ONVIFSOAP.Fault) -> String
        switch request.path {
        case "/onvif/device_service":
            service = { (operation) throws(ONVIFSOAP.Fault) in try ONVIFDeviceService.answer(operation, context, now: self.wall()) }
        case "/onvif/media_service": service = { (operation) throws(ONVIFSOAP.Fault) in try ONVIFMediaService.answer(operation, context) }
        case "/onvif/media2_service": service = { (operation) throws(ONVIFSOAP.Fault) in try ONVIFMedia2Service.answer(operation, context) }
        case let path where events != nil && (path == ONVIFEventsService.path || path.hasPrefix(ONVIFEventsService.pullPointPrefix)):
            guard let events else { return .text(404, "not found") }
            service = { (operation) throws(ONVIFSOAP.Fault) in
                try ONVIFEventsService.answer(operation, path: path, context, events: events, wall: self.wall())
            }
        default: return .text(404, "not found")
        }
        let envelope: SOAPEnvelope
        do {
            envelope = try SOAPEnvelope(request.body)
        } catch {
            return Self.response(.malformed(error.description))
        }
        let operation = envelope.operation
        if !Self.openOperations.contains(operation.name) {
            if let refusal = refusal(envelope, request: request, address: address, secure: context.secure) { return refusal }
        }
        if let events, operation.name == "PullMessages", request.path.hasPrefix(ONVIFEventsService.pullPointPrefix) {
            return pullMessages(operation, id: String(request.path.dropFirst(ONVIFEventsService.pullPointPrefix.count)), events: events)
        }
        do {
            return Self.response(200, try service(operation))
        } catch {
            return Self.response(error)
        }
    }

    /// PullMessages' long poll: a pending response the events answer when the wait ends (no
    /// thread waits for it here); withdrawn when the client leaves.
    private func pullMessages(_ operation: SOAPElement, id: String, events: ONVIFEvents) -> HTTPResponse {
        let pending = HTTPPendingResponse()
        do {
            let ticket = try ONVIFEventsService.pullMessages(operation, id: id, events: events, wall: wall) { answered in
                switch answered {
                case .success(let body): pending.answer(Self.response(200, body))
                case .failure(let fault): pending.answer(Self.response(fault))
                }
            }
            pending.onCancel { events.cancel(id, ticket: ticket) }
        } catch {
            return Self.response(error)
        }
        return HTTPResponse(status: 200, body: .pending(pending))
    }

    /// The accounts in force now: `onair` with each token, and each user with `read` and a device secret.
    private var accounts: [ONVIFGate.Account] {
        let tokens = access.numberedTokens.map { ONVIFGate.Account(user: "onair", password: $0.secret, number: $0.number) }
        let users = access.users.filter { $0.permissions.contains(.read) }.compactMap { user in
            configuration.deviceSecrets[user.name].map { ONVIFGate.Account(user: user.name, password: $0, number: 0) }
        }
        return tokens + users
    }

    /// The refusal of a SOAP request that needs credentials, or nil when it may go on.
    private func refusal(_ envelope: SOAPEnvelope, request: HTTPRequest, address: String, secure: Bool) -> HTTPResponse? {
        let accounts = accounts
        guard !accounts.isEmpty || !access.isOpen else { return nil }
        if let left = access.limiter.blocked(address) {
            var refused = Self.response(.notAuthorized("too many failed logins from this address"))
            refused.headers.append(("Retry-After", "\(Int(left.rounded(.up)))"))
            return refused
        }
        guard let token = WSUsernameToken(header: envelope.header) else {
            return httpRefusal(
                request, address: address, secure: secure,
                fault: .notAuthorized("credentials needed: a WS-Security UsernameToken or HTTP Digest"))
        }
        let verdict = gate.withLock { gate in
            gate.accounts = accounts
            return gate.check(token, from: address, wall: wall(), now: uptime(), secure: secure)
        }
        switch verdict {
        case .admitted: return nil
        case .stale:
            return Self.response(
                .notAuthorized("the UsernameToken was created over 5 minutes from the device's clock (GetSystemDateAndTime)"))
        case .plainTextRefused:
            return Self.response(.notAuthorized("a text password needs TLS: send a PasswordDigest"))
        case .replayed:
            access.recordFailure(address: address, method: "onvif-wsse")
            return Self.response(.notAuthorized("the UsernameToken's nonce was used before"))
        case .wrong, .missing:
            access.recordFailure(address: address, method: "onvif-wsse")
            return Self.response(.notAuthorized("wrong user name or password"))
        }
    }

    /// The refusal of a request by its HTTP credentials (Digest; Basic too over TLS or from
    /// loopback), or nil when they admit it; `fault` is the body of a SOAP request's refusal.
    private func httpRefusal(_ request: HTTPRequest, address: String, secure: Bool, fault: ONVIFSOAP.Fault?) -> HTTPResponse? {
        let accounts = accounts
        guard !accounts.isEmpty || !access.isOpen else { return nil }
        if let left = access.limiter.blocked(address) {
            var refused = HTTPResponse.text(429, "too many failed logins from this address")
            refused.headers.append(("Retry-After", "\(Int(left.rounded(.up)))"))
            return refused
        }
        let header = request.headers["authorization"]
        let basicAllowed = secure || ServeAddressRange.loopback.contains { $0.contains(address) }
        if let header, basicAllowed, case .basic(let user, let password)? = HTTPAuthorization(header) {
            if accounts.contains(where: { ConstantTime.equal($0.user, user) && ConstantTime.equal($0.password, password) }) { return nil }
            access.recordFailure(address: address, method: "onvif-basic")
        } else {
            let verdict = gate.withLock { gate in
                gate.accounts = accounts
                return gate.check(authorization: header.map { [$0] } ?? [], method: request.method, now: uptime())
            }
            if case .admitted = verdict { return nil }
            if verdict == .wrong { access.recordFailure(address: address, method: "onvif-digest") }
        }
        let challenge = gate.withLock { $0.challenge(now: uptime()) }
        var refused = fault.map { Self.response($0) } ?? .text(401, "credentials needed: HTTP Digest")
        refused.status = 401
        refused.headers.append(("WWW-Authenticate", challenge))
        if basicAllowed { refused.headers.append(("WWW-Authenticate", "Basic realm=\"\(ONVIFGate.realm)\"")) }
        return refused
    }

    /// What the answers to `request` are made of: its `Host` (or the advertised address) and
    /// the listener it came to (plain HTTP on the ONVIF listener).
    private func context(for request: HTTPRequest, onOwnListener: Bool) -> ONVIFContext {
        let fallback = onOwnListener ? ownListener ?? listener : listener
        let hostAndPort = configuration.advertise ?? ONVIFContext.checkedHost(request.headers["host"]) ?? fallback
        let secure = secure && !onOwnListener
        var context = ONVIFContext(
            base: (secure ? "https://" : "http://") + hostAndPort, host: ONVIFContext.hostOnly(hostAndPort), profiles: profiles,
            identity: identity, rtsp: rtsp, secure: secure, events: events != nil)
        context.scopes = configuration.scopes
        return context
    }

    /// Starts the ONVIF services' own plain-HTTP listener on `listen` (`ADDR:PORT`), each
    /// request handed to `handler` (which answers the ONVIF paths, 404 for the rest).
    package static func listen(on listen: String, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws -> HTTPServer {
        var http = HTTPServerConfiguration(address: try HTTPListenAddress(parsing: listen))
        http.connectionLimit = 64
        http.perAddressLimit = 24
        http.idleTimeout = 75  // a PullMessages waits up to a minute
        http.connectionMemoryLimit = 64 * 1024
        http.methods = ["GET", "HEAD", "POST"]
        return try HTTPServer(configuration: http) { request in
            handles(request.path) ? handler(request) : .text(404, "not found: this listener answers ONVIF (/onvif/…) only")
        }
    }

    /// Answers the events service's waiting pulls empty (the server stops).
    package func close() { events?.close() }

    private static func response(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", ONVIFSOAP.contentType), ("Cache-Control", "no-cache")],
            body: .bytes(Array(ONVIFSOAP.envelope(body).utf8)))
    }

    private static func response(_ fault: ONVIFSOAP.Fault) -> HTTPResponse {
        response(fault.status, fault.xml)
    }
}
#endif
