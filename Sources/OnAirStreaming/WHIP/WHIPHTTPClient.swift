#if os(Linux)
#if canImport(OnAirHTTP)
import Foundation
import OnAirHTTP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few HTTP/1.1 requests WHIP needs (POST the offer, DELETE the session), one connection
/// each (`Connection: close`), over a TCP socket (inside TLS for `whip+https`, the certificate
/// checked) with a deadline on connecting and on the whole exchange. Blocking: call it from a
/// dedicated thread.
struct WHIPHTTPClient: Sendable {
    /// The most bytes of a response body that are read (an SDP answer is a few kB).
    static let maximumBodyBytes = 256 * 1024

    /// A response: its head and body.
    struct Response: Sendable {
        var head: HTTPResponseHead
        var body: [UInt8]
    }

    let endpoint: WHIPEndpoint
    /// Sent as `Authorization: Bearer …` when set.
    let token: String?
    /// Seconds the connect and the whole exchange may take.
    let timeout: Double
    /// For `https` endpoints: check the certificate (chain and host), against `caFile`'s
    /// authorities or the system's.
    var verify = true
    /// PEM file of the authorities to trust instead of the system's.
    var caFile: String?

    /// Sends `method path` with `body` (of `contentType`) and returns the response.
    func exchange(_ method: String, path: String, body: [UInt8] = [], contentType: String? = nil) throws(WHIPError) -> Response {
        let deadline = ProcessInfo.processInfo.systemUptime + timeout
        let socket = try openSocket(deadline: deadline)
        defer { close(socket) }
        let tls = try endpoint.isSecure ? startTLS(on: socket, deadline: deadline) : nil
        var request = "\(method) \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: onair\r\nConnection: close\r\n"
        if let token { request += "Authorization: Bearer \(token)\r\n" }
        if let contentType { request += "Content-Type: \(contentType)\r\n" }
        if !body.isEmpty || method == "POST" { request += "Content-Length: \(body.count)\r\n" }
        request += "\r\n"
        if let tls {
            do { try tls.send(Array(request.utf8) + body) } catch { throw unreachable("sending the request: \(error)") }
        } else {
            try sendAll(Array(request.utf8) + body, on: socket, deadline: deadline)
        }
        return try receive(on: socket, tls: tls, deadline: deadline, headOnly: method == "HEAD")
    }

    /// The TLS session on the connected socket (made blocking; TLS's own timeouts keep the deadline).
    private func startTLS(on socket: Int32, deadline: Double) throws(WHIPError) -> HTTPTLSClientConnection {
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL, 0) & ~O_NONBLOCK)
        var send = timeval(tv_sec: Int(max(1, timeout)), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &send, socklen_t(MemoryLayout<timeval>.size))
        let host = endpoint.host.trimmingCharacters(in: ["[", "]"])
        do {
            return try HTTPTLSClientConnection(
                socket: socket, host: host, caFile: caFile, verify: verify,
                timeout: max(0.001, deadline - ProcessInfo.processInfo.systemUptime))
        } catch {
            throw unreachable("TLS with \(host): \(error)")
        }
    }

    private var hostHeader: String {
        let host = endpoint.host.contains(":") ? "[\(endpoint.host)]" : endpoint.host
        return endpoint.port == 80 ? host : "\(host):\(endpoint.port)"
    }

    private func unreachable(_ reason: String) -> WHIPError {
        .unreachable(destination: endpoint.name, reason: reason)
    }

    #if canImport(Glibc)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let noSignal: Int32 = 0
    #endif

    private static func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// A connected socket to the endpoint (every address the name resolves to is tried in turn).
    private func openSocket(deadline: Double) throws(WHIPError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let host = endpoint.host.trimmingCharacters(in: ["[", "]"])
        let status = getaddrinfo(host, String(endpoint.port), &hints, &list)
        guard status == 0, let first = list else {
            throw unreachable("cannot resolve \(endpoint.host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else {
                lastError = Self.errnoText(errno)
                continue
            }
            let flags = fcntl(fd, F_GETFL, 0)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            var result = connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen)
            if result != 0 && errno == EINPROGRESS {
                result = waitFor(fd, for: Int16(POLLOUT), deadline: deadline) ? 0 : -1
                if result != 0 {
                    lastError = "connection timed out after \(timeout) s"
                } else {
                    var code: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
                    if code != 0 {
                        lastError = Self.errnoText(code)
                        result = -1
                    }
                }
            } else if result != 0 {
                lastError = Self.errnoText(errno)
            }
            if result == 0 { return fd }
            close(fd)
        }
        throw unreachable(lastError)
    }

    /// Waits until `fd` is ready for `events` or the deadline passes.
    private func waitFor(_ fd: Int32, for events: Int16, deadline: Double) -> Bool {
        while true {
            let left = deadline - ProcessInfo.processInfo.systemUptime
            guard left > 0 else { return false }
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left * 1000, 1000).rounded(.up)))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return false }
        }
    }

    private func sendAll(_ bytes: [UInt8], on fd: Int32, deadline: Double) throws(WHIPError) {
        var sent = 0
        while sent < bytes.count {
            guard waitFor(fd, for: Int16(POLLOUT), deadline: deadline) else { throw unreachable("sending the request timed out") }
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Self.noSignal) }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw unreachable("sending the request: \(Self.errnoText(errno))")
            }
            sent += count
        }
    }

    private func receive(on fd: Int32, tls: HTTPTLSClientConnection?, deadline: Double, headOnly: Bool) throws(WHIPError) -> Response {
        var bytes: [UInt8] = []
        var head: HTTPResponseHead?
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if let head {
                let length = try contentLength(head)
                let have = bytes.count - head.bodyOffset
                if headOnly || length.map({ have >= $0 }) == true || head.status == 204 || head.status == 304 {
                    let end = head.bodyOffset + min(have, headOnly || head.status == 204 ? 0 : (length ?? have))
                    return Response(head: head, body: Array(bytes[head.bodyOffset..<end]))
                }
                if have > Self.maximumBodyBytes {
                    throw WHIPError.badAnswer(destination: endpoint.name, reason: "a body over \(Self.maximumBodyBytes) bytes")
                }
            }
            let late = head == nil ? "no answer within \(timeout) s" : "the answer's body did not arrive within \(timeout) s"
            let count: Int
            if let tls {
                let left = deadline - ProcessInfo.processInfo.systemUptime
                guard left > 0 else { throw unreachable(late) }
                do { count = try tls.receive(into: &chunk, timeout: left) } catch { throw unreachable("reading the answer: \(error)") }
            } else {
                guard waitFor(fd, for: Int16(POLLIN), deadline: deadline) else { throw unreachable(late) }
                count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw unreachable("reading the answer: \(Self.errnoText(errno))")
            }
            if count == 0 {
                // Closed: without a Content-Length the body ends here.
                guard let head else {
                    throw unreachable(
                        bytes.isEmpty ? "the server closed the connection without answering" : "the answer ended inside its head")
                }
                if let length = try contentLength(head), bytes.count - head.bodyOffset < length {
                    throw WHIPError.badAnswer(destination: endpoint.name, reason: "the body ended before its Content-Length")
                }
                return Response(head: head, body: Array(bytes[head.bodyOffset...]))
            }
            bytes += chunk[0..<count]
            if head == nil {
                do { head = try HTTPResponseHead.parse(bytes) } catch {
                    throw WHIPError.badAnswer(destination: endpoint.name, reason: error.description)
                }
                if let parsed = head, parsed.value("Transfer-Encoding").map({ $0.lowercased() != "identity" }) == true {
                    throw WHIPError.badAnswer(destination: endpoint.name, reason: "a chunked body, which OnAir's WHIP client does not read")
                }
            }
        }
    }

    private func contentLength(_ head: HTTPResponseHead) throws(WHIPError) -> Int? {
        do { return try head.contentLength() } catch {
            throw WHIPError.badAnswer(destination: endpoint.name, reason: error.description)
        }
    }
}
#endif
#endif
