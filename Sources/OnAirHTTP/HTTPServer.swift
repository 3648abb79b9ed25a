#if os(Linux)
import CMicroHTTPD
import COnAirTLS
import Foundation
import OnAirCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server on libmicrohttpd, event-driven: one thread runs every connection's socket
/// (epoll), handlers run on a small pool of threads of their own, and a connection that waits —
/// for its handler, for a pending answer, for a continuous source's next bytes — is set aside
/// (suspended) until what it waits for comes. Neither viewers nor long polls cost a thread each;
/// the server's threads are its event loop, a housekeeping thread and at most `handlerThreads`
/// handler threads. libmicrohttpd's limits on connections, memory per request (request line and
/// header size), idle time and connections per address apply, plus a deadline for the whole
/// request header.
///
/// Every request goes to one handler, called on a handler thread (never on the event loop, so a
/// slow handler stalls no other connection). Only the configuration's `methods` (`GET` and `HEAD`
/// by default) reach it; others get 405. A body (POST, PATCH, PUT) is collected up to
/// `maximumBodyBytes` (413 beyond) before the handler sees the request. A handler that cannot
/// answer yet returns a `.pending` body and answers through it later, from any thread; the
/// connection is dropped (and the pending response cancelled) when its peer leaves or the server
/// stops. A continuous body is read on the event loop: its source must not wait (see
/// `HTTPStreamSource`).
package final class HTTPServer: Sendable {
    /// Answers one request.
    package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// The configuration the server runs with.
    package let configuration: HTTPServerConfiguration
    /// The TCP port listened on (the system's pick when the configuration said 0).
    package var port: Int { state.withLock { $0.port } }
    private let handler: Handler
    private let messages: @Sendable (String) -> Void
    /// The `onair_mhd_logger` libmicrohttpd's log lines come through (freed by deinit).
    private let logger: HTTPCPointer
    private let watchdog: HTTPConnectionWatchdog
    /// Connections set aside until their answer or next bytes come.
    private let suspensions: HTTPSuspensions
    /// The threads handlers run on.
    private let pool: HTTPHandlerPool
    private let state = Locked(State())

    private struct State {
        var port = 0
        /// The running daemon (nil once stopped).
        var daemon: HTTPCPointer?
        /// The last line libmicrohttpd logged (the reason a start failed).
        var lastMessage: String?
        /// The certificate of an HTTPS server, replaceable while it runs.
        var tlsSlot: HTTPTLSSlot?
    }

    /// Starts listening; `messages` receives libmicrohttpd's own error and warning lines.
    package init(
        configuration: HTTPServerConfiguration, messages: @escaping @Sendable (String) -> Void = { _ in },
        handler: @escaping Handler
    ) throws {
        guard configuration.connectionLimit > 0, configuration.connectionMemoryLimit >= 4096,
            configuration.idleTimeout > 0, configuration.requestTimeout > 0, configuration.handlerThreads > 0
        else {
            throw HTTPServerError(
                "HTTP limits must be positive (memory at least 4096 bytes)", isInvalidSettings: true)
        }
        self.configuration = configuration
        self.handler = handler
        self.messages = messages
        let suspensions = HTTPSuspensions { MHD_resume_connection($0.pointer) }
        self.suspensions = suspensions
        pool = HTTPHandlerPool(limit: configuration.handlerThreads, stackSize: configuration.threadStackSize)
        watchdog = HTTPConnectionWatchdog(deadline: configuration.requestTimeout) { suspensions.dropLeftPeers() }
        let logger = UnsafeMutablePointer<onair_mhd_logger>.allocate(capacity: 1)
        self.logger = HTTPCPointer(OpaquePointer(logger))
        logger.initialize(
            to: onair_mhd_logger(
                sink: { context, message in
                    guard let context, let message else { return }
                    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().note(String(cString: message))
                }, context: nil))
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_ERROR_LOG.rawValue
        if configuration.address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        // The callbacks hold the server unretained: `stop()` ends the daemon before the server can go.
        let context = Unmanaged.passUnretained(self).toOpaque()
        logger.pointee.context = context
        let tlsSlot: HTTPTLSSlot?
        do {
            tlsSlot = try configuration.tls.map { try HTTPTLSSlot($0) }
        } catch {
            watchdog.stop()
            throw error
        }
        state.withLock { $0.tlsSlot = tlsSlot }
        if configuration.address.port != 0 { tlsSlot?.bind(port: configuration.address.port) }
        let started = configuration.address.withSocketAddress { address, _ in
            guard configuration.tls != nil else {
                return onair_mhd_start(
                    flags, address, Self.accessHandler, context, Self.notifyConnection, Self.requestCompleted, context,
                    UInt32(configuration.connectionLimit), UInt32(configuration.perAddressLimit),
                    UInt32(configuration.idleTimeout), configuration.connectionMemoryLimit,
                    configuration.threadStackSize, logger)
            }
            // Each handshake takes the slot's current certificate: `reloadCertificate` replaces it.
            return onair_mhd_start_tls_callback(
                flags, address, Self.accessHandler, context, Self.notifyConnection, Self.requestCompleted, context,
                UInt32(configuration.connectionLimit), UInt32(configuration.perAddressLimit),
                UInt32(configuration.idleTimeout), configuration.connectionMemoryLimit,
                configuration.threadStackSize, logger, onair_tls_retrieve_function(), HTTPTLSCredentials.priorities)
        }
        guard let started else {
            // libmicrohttpd logs the system's reason right after the call that failed (bind,
            // listen); errno after it returns may belong to its clean-up (libmicrohttpd 1.0
            // reports a port in use as "Bad file descriptor" there).
            let reason =
                state.withLock { $0.lastMessage }?.trimmingCharacters(in: .whitespacesAndNewlines)
                ?? "libmicrohttpd gave no reason"
            // (The logger is released by deinit, which runs for this instance too.)
            watchdog.stop()
            pool.stop()
            throw HTTPServerError("cannot listen on \(configuration.address): \(reason)")
        }
        let port = Int(onair_mhd_bound_port(started))
        state.withLock { state in
            state.daemon = HTTPCPointer(started)
            state.port = port
        }
        tlsSlot?.bind(port: port)
    }

    /// Keeps `message` as the last one logged and passes it on.
    private func note(_ message: String) {
        state.withLock { $0.lastMessage = message }
        messages(message)
    }

    deinit {
        stop()
        UnsafeMutablePointer<onair_mhd_logger>(logger.pointer).deallocate()
    }

    /// Presents `credentials` from the next TLS handshake on; connections already open keep going
    /// with the certificate they were made with. Throws when the server is not HTTPS or GnuTLS
    /// cannot read them.
    package func reloadCertificate(_ credentials: HTTPTLSCredentials) throws {
        guard let tlsSlot = state.withLock({ $0.tlsSlot }) else {
            throw HTTPServerError("this server does not speak TLS", isInvalidSettings: true)
        }
        try tlsSlot.replace(with: credentials)
    }

    /// Requests cut because their header took longer than `requestTimeout`.
    package var requestsTimedOut: Int { watchdog.requestsCut }

    /// Stops listening, closes every connection (a pending response is cancelled, a continuous
    /// one ended) and waits for the handlers running to return.
    package func stop() {
        let daemon: HTTPCPointer? = state.withLock { state in
            let daemon = state.daemon
            state.daemon = nil
            return daemon
        }
        guard let daemon else { return }
        // libmicrohttpd must not stop with a connection suspended: resume them all, dropped, and
        // refuse to keep any from now on.
        suspensions.dropAll()
        pool.stop()
        MHD_stop_daemon(daemon.pointer)
        watchdog.stop()
        state.withLock { $0.tlsSlot = nil }  // after the daemon: no handshake can ask for it any more
    }

    /// Connections set aside now: waiting for their handler or a pending answer, or continuous
    /// responses waiting for their source's next bytes.
    package var suspendedConnections: Int { suspensions.count }

    // MARK: libmicrohttpd callbacks

    /// One request on its way through the server, kept by libmicrohttpd as the request's context
    /// (retained there until `requestCompleted`).
    private final class Exchange: Sendable {
        enum Phase {
            /// The header and body arrive (on the event loop).
            case receiving
            /// Suspended while the handler, or a pending answer, works.
            case handling
            /// Resumed with the answer to queue.
            case answered(HTTPResponse)
            /// Resumed without an answer: the peer left or the server stops.
            case dropped
            /// The answer is queued.
            case responded
        }

        /// A body on its way in.
        struct Upload {
            var bytes: [UInt8] = []
            var overflowed = false
        }

        private struct State {
            var phase = Phase.receiving
            /// The body received so far (on the event loop only).
            var upload: Upload?
        }

        private let state = Locked(State())

        /// Moves to `phase`.
        func set(_ phase: Phase) { state.withLock { $0.phase = phase } }

        /// The phase, taking an answer out (to `responded`) when there is one.
        func advance() -> Phase {
            state.withLock { state in
                let now = state.phase
                if case .answered = now { state.phase = .responded }
                return now
            }
        }

        /// Whether a body is being received.
        var receivingBody: Bool { state.withLock { $0.upload != nil } }

        /// Starts receiving a body.
        func startUpload() { state.withLock { $0.upload = Upload() } }

        /// Changes the body received so far, in place.
        func updateUpload(_ body: (inout Upload) -> Void) {
            state.withLock { state in
                if state.upload != nil { body(&state.upload!) }
            }
        }

        /// The body received, no longer kept here.
        func takeUpload() -> Upload? {
            state.withLock { state in
                defer { state.upload = nil }
                return state.upload
            }
        }
    }

    private static let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, data, size, slot in
        guard let context, let connection, let slot else { return .NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        let exchange: Exchange
        if let existing = slot.pointee {
            exchange = Unmanaged<Exchange>.fromOpaque(existing).takeUnretainedValue()
        } else {
            exchange = Exchange()
            slot.pointee = Unmanaged.passRetained(exchange).toOpaque()
        }
        switch exchange.advance() {
        case .receiving: break
        case .answered(let response): return server.queue(response, on: connection)
        case .dropped:
            // Nobody reads it when the peer left; a client of a stopping server learns why.
            return server.queue(.text(503, "the server is stopping"), on: connection)
        case .handling, .responded: return .NO
        }
        let methodName = method.map { String(cString: $0) } ?? ""
        let path = url.map { String(cString: $0) } ?? ""
        guard ["POST", "PATCH", "PUT"].contains(methodName), server.configuration.methods.contains(methodName) else {
            return server.answer(exchange, connection, path: path, method: methodName, body: [])
        }
        return server.receive(exchange, connection, path: path, method: methodName, data: data, size: size)
    }

    /// One call of a request with a body: the first (header only), then one per piece of body, then a
    /// last one with nothing, when the request is answered.
    private func receive(
        _ exchange: Exchange, _ connection: OpaquePointer, path: String, method: String,
        data: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>?
    ) -> MHD_Result {
        guard exchange.receivingBody else {
            if let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length").map({ String(cString: $0) }),
                let declared = Int(length), declared > configuration.maximumBodyBytes
            {
                watchdog.answered(connection)
                return queue(.text(413, "the body is larger than \(configuration.maximumBodyBytes) bytes"), on: connection)
            }
            exchange.startUpload()
            return .YES
        }
        if let size, size.pointee > 0 {
            let count = size.pointee, maximum = configuration.maximumBodyBytes
            if let data {
                exchange.updateUpload { upload in
                    guard !upload.overflowed else { return }
                    if upload.bytes.count + count > maximum {
                        upload.overflowed = true
                        upload.bytes = []
                    } else {
                        data.withMemoryRebound(to: UInt8.self, capacity: count) {
                            upload.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                        }
                    }
                }
            }
            size.pointee = 0
            return .YES
        }
        guard let upload = exchange.takeUpload() else { return .NO }
        guard !upload.overflowed else {
            watchdog.answered(connection)
            return queue(.text(413, "the body is larger than \(configuration.maximumBodyBytes) bytes"), on: connection)
        }
        return answer(exchange, connection, path: path, method: method, body: upload.bytes)
    }

    private static let notifyConnection: MHD_NotifyConnectionCallback = { context, connection, _, code in
        guard let context, let connection else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        if code.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED
            let socket = onair_mhd_connection_fd(connection)
            if server.configuration.sendBufferBytes > 0, socket >= 0 {
                var size = Int32(clamping: server.configuration.sendBufferBytes)
                setsockopt(socket, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            server.watchdog.register(connection, socket: socket)
        } else {
            server.watchdog.unregister(connection)
        }
    }

    /// A request is done (answered, or its connection closed): its exchange goes.
    private static let requestCompleted: MHD_RequestCompletedCallback = { _, _, slot, _ in
        guard let slot, let exchange = slot.pointee else { return }
        slot.pointee = nil
        Unmanaged<Exchange>.fromOpaque(exchange).release()
    }

    private static let queryIterator: MHD_KeyValueIterator = { context, _, key, value in
        guard let context, let key else { return .YES }
        let box = Unmanaged<QueryBox>.fromOpaque(context).takeUnretainedValue()
        guard box.items.count < HTTPRequest.maximumQueryItems else { return .NO }
        let name = String(cString: key)
        if box.items[name] == nil { box.items[name] = value.map { String(cString: $0) } ?? "" }
        return .YES
    }

    /// Reads a continuous body on the event loop. Never returns 0 without suspending the
    /// connection (libmicrohttpd would call again at once, forever): with nothing to send, the
    /// connection is set aside until the source's wake.
    private static let streamReader: MHD_ContentReaderCallback = { context, _, buffer, maximum in
        guard let context, let buffer else { return -2 }
        let box = Unmanaged<StreamBox>.fromOpaque(context).takeUnretainedValue()
        // Resumed without bytes: the peer left or the server stops.
        if box.dropped.current { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
        switch box.source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: maximum)) {
        case .bytes(let count): return min(count, maximum)
        case .nothing:
            box.wait()
            return 0
        case .end: return -1  // MHD_CONTENT_READER_END_OF_STREAM
        case .abort: return -2  // MHD_CONTENT_READER_END_WITH_ERROR
        }
    }

    private static let streamFreed: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        let box = Unmanaged<StreamBox>.fromOpaque(context).takeRetainedValue()
        box.source.close()
    }

    /// MHD_RESPMEM_MUST_COPY (its case name does not import under one spelling on every toolchain).
    private static let mustCopy = MHD_ResponseMemoryMode(rawValue: 2)!

    private final class QueryBox {
        var items: [String: String] = [:]
    }

    /// A continuous body and the connection it is sent on.
    private final class StreamBox: Sendable {
        let source: any HTTPStreamSource
        let connection: HTTPCPointer
        let socket: Int32
        let suspensions: HTTPSuspensions
        /// Resumed without bytes to send (the peer left, the server stops).
        let dropped = Locked(false)

        init(_ source: any HTTPStreamSource, connection: OpaquePointer, suspensions: HTTPSuspensions) {
            self.source = source
            self.connection = HTTPCPointer(connection)
            socket = onair_mhd_connection_fd(connection)
            self.suspensions = suspensions
        }

        /// Sets the connection aside until the source has more (on the event loop, in the reader).
        func wait() {
            MHD_suspend_connection(connection.pointer)
            let dropped = self.dropped
            guard let token = suspensions.add(connection, socket: socket, drop: { dropped.withLock { $0 = true } }) else {
                dropped.withLock { $0 = true }
                MHD_resume_connection(connection.pointer)
                return
            }
            let suspensions = self.suspensions, connection = self.connection
            source.notify { suspensions.wake(connection, token: token) }
        }
    }

    /// Builds the request on the event loop and hands it to a handler thread, the connection
    /// suspended until the answer comes (405 for a method not taken, at once).
    private func answer(_ exchange: Exchange, _ connection: OpaquePointer, path: String, method: String, body: [UInt8])
        -> MHD_Result
    {
        watchdog.answered(connection)
        guard configuration.methods.contains(method) else {
            var refused = HTTPResponse.text(405, "method not allowed")
            refused.headers.append(("Allow", configuration.methods.sorted().joined(separator: ", ")))
            return queue(refused, on: connection)
        }
        let box = QueryBox()
        let unmanagedBox = Unmanaged.passRetained(box)
        MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, Self.queryIterator, unmanagedBox.toOpaque())
        unmanagedBox.release()
        var headers: [String: String] = [:]
        for name in HTTPRequest.headerNames {
            if let value = MHD_lookup_connection_value(connection, .HEADER_KIND, name) { headers[name] = String(cString: value) }
        }
        let request = HTTPRequest(
            method: method, path: path, query: box.items,
            peer: HTTPListenAddress.describe(onair_mhd_client_address(connection)),
            headers: headers, body: body)
        let handle = HTTPCPointer(connection)
        let socket = onair_mhd_connection_fd(connection)
        exchange.set(.handling)
        MHD_suspend_connection(connection)
        guard let token = suspensions.add(handle, drop: { exchange.set(.dropped) }) else {
            exchange.set(.dropped)
            MHD_resume_connection(connection)
            return .YES
        }
        let handler = self.handler, suspensions = self.suspensions
        let submitted = pool.submit {
            Self.deliver(handler(request), exchange: exchange, connection: handle, token: token, socket: socket, suspensions: suspensions)
        }
        if !submitted { suspensions.wake(handle, token: token) { exchange.set(.dropped) } }
        return .YES
    }

    /// Hands a handler's answer to its suspended connection: a pending one once it is answered
    /// (its peer watched meanwhile: leaving cancels it). An answer that finds the connection gone
    /// is released (a stream closed, a pending response cancelled).
    private static func deliver(
        _ response: HTTPResponse, exchange: Exchange, connection: HTTPCPointer, token: UInt64, socket: Int32,
        suspensions: HTTPSuspensions
    ) {
        if case .pending(let pending) = response.body {
            guard suspensions.watch(connection, token: token, socket: socket, dropped: { pending.cancel() }) else {
                pending.cancel()
                return
            }
            pending.whenAnswered {
                guard let answer = pending.take() else { return }
                deliver(answer, exchange: exchange, connection: connection, token: token, socket: socket, suspensions: suspensions)
            }
            return
        }
        guard suspensions.wake(connection, token: token, prepare: { exchange.set(.answered(response)) }) else {
            discard(response)
            return
        }
    }

    /// Releases an answer that is not sent.
    private static func discard(_ response: HTTPResponse) {
        switch response.body {
        case .bytes: break
        case .stream(let source): source.close()
        case .pending(let pending): pending.cancel()
        }
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made: OpaquePointer?
        switch response.body {
        case .pending(let pending):
            // `deliver` waits for pending answers: none reaches the event loop.
            pending.cancel()
            return .NO
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { raw in
                MHD_create_response_from_buffer(
                    raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress),
                    Self.mustCopy)
            }
        case .stream(let source):
            let box = Unmanaged.passRetained(StreamBox(source, connection: connection, suspensions: suspensions))
            made = MHD_create_response_from_callback(UInt64.max, 32 * 1024, Self.streamReader, box.toOpaque(), Self.streamFreed)
            if made == nil {
                box.release()
                source.close()
            } else if let closer = watchdog.closer(for: connection) {
                source.whenAborted(closer)
            }
        }
        guard let made else {
            messages("could not create a response")
            return .NO
        }
        defer { MHD_destroy_response(made) }
        for header in response.headers {
            _ = MHD_add_response_header(made, header.name, header.value)
        }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }
}
#endif
