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

/// An HTTP/1.1 server on libmicrohttpd: one thread per connection, so a continuous response's
/// source may block while it waits for data, with libmicrohttpd's limits on connections, memory
/// per request (request line and header size), idle time and connections per address, plus a
/// deadline for the whole request header.
///
/// Every request goes to one handler, called on the connection's thread. Only the configuration's
/// `methods` (`GET` and `HEAD` by default) reach it; others get 405. A body (POST, PATCH, PUT) is
/// collected up to `maximumBodyBytes` (413 beyond) before the handler sees the request. A handler
/// that cannot answer yet returns a `.pending` body and answers through it later.
public final class HTTPServer: @unchecked Sendable {
    /// Answers one request.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// The configuration the server runs with.
    public let configuration: HTTPServerConfiguration
    /// The TCP port listened on (the system's pick when the configuration said 0).
    public private(set) var port = 0
    private let handler: Handler
    private let messages: @Sendable (String) -> Void
    private var daemon: OpaquePointer?
    private let logger: UnsafeMutablePointer<onair_mhd_logger>
    private let watchdog: HTTPConnectionWatchdog
    private let lock = NSLock()
    /// The last line libmicrohttpd logged (the reason a start failed).
    private var lastMessage: String?
    private var stopped = false
    /// The certificate of an HTTPS server, replaceable while it runs.
    private var tlsSlot: HTTPTLSSlot?
    /// Bodies being received, by connection (one request at a time per connection).
    private var uploads: [OpaquePointer: Upload] = [:]

    private final class Upload {
        var bytes: [UInt8] = []
        var overflowed = false
    }

    /// Starts listening; `messages` receives libmicrohttpd's own error and warning lines.
    public init(
        configuration: HTTPServerConfiguration, messages: @escaping @Sendable (String) -> Void = { _ in },
        handler: @escaping Handler
    ) throws {
        guard configuration.connectionLimit > 0, configuration.connectionMemoryLimit >= 4096,
            configuration.idleTimeout > 0, configuration.requestTimeout > 0
        else {
            throw HTTPServerError("HTTP limits must be positive (memory at least 4096 bytes)", isInvalidSettings: true)
        }
        self.configuration = configuration
        self.handler = handler
        self.messages = messages
        watchdog = HTTPConnectionWatchdog(deadline: configuration.requestTimeout)
        logger = .allocate(capacity: 1)
        logger.initialize(
            to: onair_mhd_logger(
                sink: { context, message in
                    guard let context, let message else { return }
                    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().note(String(cString: message))
                }, context: nil))
        var flags =
            MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_USE_POLL.rawValue | MHD_USE_ERROR_LOG.rawValue
        if configuration.address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        // The callbacks hold the server unretained: `stop()` ends the daemon before the server can go.
        let context = Unmanaged.passUnretained(self).toOpaque()
        logger.pointee.context = context
        do {
            tlsSlot = try configuration.tls.map { try HTTPTLSSlot($0) }
        } catch {
            watchdog.stop()
            throw error
        }
        if configuration.address.port != 0 { tlsSlot?.bind(port: configuration.address.port) }
        let started = configuration.address.withSocketAddress { address, _ in
            guard configuration.tls != nil else {
                return onair_mhd_start(
                    flags, address, Self.accessHandler, context, Self.notifyConnection, context,
                    UInt32(configuration.connectionLimit), UInt32(configuration.perAddressLimit),
                    UInt32(configuration.idleTimeout), configuration.connectionMemoryLimit,
                    configuration.threadStackSize, logger)
            }
            // Each handshake takes the slot's current certificate: `reloadCertificate` replaces it.
            return onair_mhd_start_tls_callback(
                flags, address, Self.accessHandler, context, Self.notifyConnection, context,
                UInt32(configuration.connectionLimit), UInt32(configuration.perAddressLimit),
                UInt32(configuration.idleTimeout), configuration.connectionMemoryLimit,
                configuration.threadStackSize, logger, onair_tls_retrieve_function(), HTTPTLSCredentials.priorities)
        }
        guard let started else {
            // libmicrohttpd logs the system's reason right after the call that failed (bind,
            // listen); errno after it returns may belong to its clean-up (libmicrohttpd 1.0
            // reports a port in use as "Bad file descriptor" there).
            let reason =
                lock.withLock { lastMessage }?.trimmingCharacters(in: .whitespacesAndNewlines)
                ?? "libmicrohttpd gave no reason"
            // (The logger is released by deinit, which runs for this instance too.)
            watchdog.stop()
            throw HTTPServerError("cannot listen on \(configuration.address): \(reason)")
        }
        daemon = started
        port = Int(onair_mhd_bound_port(started))
        tlsSlot?.bind(port: port)
    }

    /// Keeps `message` as the last one logged and passes it on.
    private func note(_ message: String) {
        lock.withLock { lastMessage = message }
        messages(message)
    }

    deinit {
        stop()
        logger.deallocate()
    }

    /// Presents `credentials` from the next TLS handshake on; connections already open keep going
    /// with the certificate they were made with. Throws when the server is not HTTPS or GnuTLS
    /// cannot read them.
    public func reloadCertificate(_ credentials: HTTPTLSCredentials) throws {
        guard let tlsSlot else { throw HTTPServerError("this server does not speak TLS", isInvalidSettings: true) }
        try tlsSlot.replace(with: credentials)
    }

    /// Requests cut because their header took longer than `requestTimeout`.
    public var requestsTimedOut: Int { watchdog.requestsCut }

    /// Stops listening, closes every connection and waits for their threads (continuous sources
    /// must end within about a second, see `HTTPStreamSource`).
    public func stop() {
        lock.lock()
        let daemon = self.daemon
        self.daemon = nil
        stopped = true
        lock.unlock()
        guard let daemon else { return }
        MHD_stop_daemon(daemon)
        watchdog.stop()
        tlsSlot = nil  // after the daemon: no handshake can ask for it any more
    }

    // MARK: libmicrohttpd callbacks

    private static let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, data, size, _ in
        guard let context, let connection else { return .NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        let methodName = method.map { String(cString: $0) } ?? ""
        let path = url.map { String(cString: $0) } ?? ""
        guard ["POST", "PATCH", "PUT"].contains(methodName), server.configuration.methods.contains(methodName) else {
            return server.answer(connection, path: path, method: methodName, body: [])
        }
        return server.receive(connection, path: path, method: methodName, data: data, size: size)
    }

    /// One call of a request with a body: the first (header only), then one per piece of body, then a
    /// last one with nothing, when the request is answered.
    private func receive(
        _ connection: OpaquePointer, path: String, method: String,
        data: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>?
    ) -> MHD_Result {
        lock.lock()
        let upload = uploads[connection]
        lock.unlock()
        guard let upload else {
            if let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length").map({ String(cString: $0) }),
                let declared = Int(length), declared > configuration.maximumBodyBytes
            {
                watchdog.answered(connection)
                return queue(.text(413, "the body is larger than \(configuration.maximumBodyBytes) bytes"), on: connection)
            }
            lock.lock()
            uploads[connection] = Upload()
            lock.unlock()
            return .YES
        }
        if let size, size.pointee > 0 {
            let count = size.pointee
            if !upload.overflowed, let data {
                if upload.bytes.count + count > configuration.maximumBodyBytes {
                    upload.overflowed = true
                    upload.bytes = []
                } else {
                    data.withMemoryRebound(to: UInt8.self, capacity: count) {
                        upload.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                    }
                }
            }
            size.pointee = 0
            return .YES
        }
        lock.lock()
        uploads[connection] = nil
        lock.unlock()
        guard !upload.overflowed else {
            watchdog.answered(connection)
            return queue(.text(413, "the body is larger than \(configuration.maximumBodyBytes) bytes"), on: connection)
        }
        return answer(connection, path: path, method: method, body: upload.bytes)
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
            server.lock.lock()
            server.uploads[connection] = nil
            server.lock.unlock()
        }
    }

    private static let queryIterator: MHD_KeyValueIterator = { context, _, key, value in
        guard let context, let key else { return .YES }
        let box = Unmanaged<QueryBox>.fromOpaque(context).takeUnretainedValue()
        guard box.items.count < HTTPRequest.maximumQueryItems else { return .NO }
        let name = String(cString: key)
        if box.items[name] == nil { box.items[name] = value.map { String(cString: $0) } ?? "" }
        return .YES
    }

    private static let streamReader: MHD_ContentReaderCallback = { context, _, buffer, maximum in
        guard let context, let buffer else { return -2 }
        let box = Unmanaged<StreamBox>.fromOpaque(context).takeUnretainedValue()
        switch box.source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: maximum)) {
        case .bytes(let count): return min(count, maximum)
        case .nothing: return 0
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

    private final class StreamBox {
        let source: any HTTPStreamSource
        init(_ source: any HTTPStreamSource) { self.source = source }
    }

    private func answer(_ connection: OpaquePointer, path: String, method: String, body: [UInt8]) -> MHD_Result {
        watchdog.answered(connection)
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
        let response: HTTPResponse
        if configuration.methods.contains(method) {
            response = handler(request)
        } else {
            var refused = HTTPResponse.text(405, "method not allowed")
            refused.headers.append(("Allow", configuration.methods.sorted().joined(separator: ", ")))
            response = refused
        }
        return queue(response, on: connection)
    }

    /// Holds the connection until the pending response is answered, the peer leaves or the server
    /// stops (the connection's own thread waits: one per connection in this mode).
    private func hold(_ pending: HTTPPendingResponse, on connection: OpaquePointer) -> MHD_Result {
        let ready = DispatchSemaphore(value: 0)
        pending.whenAnswered { ready.signal() }
        let socket = onair_mhd_connection_fd(connection)
        while ready.wait(timeout: .now() + .milliseconds(250)) == .timedOut {
            let stopping = lock.withLock { stopped }
            if stopping || Self.peerLeft(socket) {
                pending.cancel()
                return .NO
            }
        }
        guard let response = pending.take() else { return .NO }
        return queue(response, on: connection)
    }

    /// Whether the peer closed or reset the connection (a zero-timeout poll).
    private static func peerLeft(_ socket: Int32) -> Bool {
        guard socket >= 0 else { return false }
        let readHangUp: Int16 = 0x2000  // POLLRDHUP, which Glibc exports only under _GNU_SOURCE
        var entry = pollfd(fd: socket, events: readHangUp, revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        return entry.revents & (readHangUp | Int16(POLLHUP | POLLERR | POLLNVAL)) != 0
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made: OpaquePointer?
        switch response.body {
        case .pending(let pending):
            return hold(pending, on: connection)
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { raw in
                MHD_create_response_from_buffer(
                    raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress),
                    Self.mustCopy)
            }
        case .stream(let source):
            let box = Unmanaged.passRetained(StreamBox(source))
            made = MHD_create_response_from_callback(UInt64.max, 32 * 1024, Self.streamReader, box.toOpaque(), Self.streamFreed)
            if made == nil {
                box.release()
                source.close()
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
