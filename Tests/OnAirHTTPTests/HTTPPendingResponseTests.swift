#if os(Linux)
import Foundation
import OnAirCore
import OnAirHTTP
import OnAirTestSupport
import Testing

/// A handler that answers later: the request is held until the holder answers, then gets exactly
/// that answer; a client that leaves first makes the holder's cancel action run.
@Suite struct HTTPPendingResponseTests {
    @Test func aHeldRequestGetsTheLaterAnswer() throws {
        let held = Locked<[HTTPPendingResponse]>([])
        let server = try HTTPServer(configuration: .init(address: try HTTPListenAddress(host: "127.0.0.1", port: 0))) { _ in
            let pending = HTTPPendingResponse()
            held.withLock { $0.append(pending) }
            return HTTPResponse(status: 200, body: .pending(pending))
        }
        defer { server.stop() }
        let result = Locked<(status: Int, body: String)?>(nil)
        let client = Thread {
            let answer = try? HTTPServerBodyTests.curl(["http://127.0.0.1:\(server.port)/wait"])
            result.withLock { $0 = answer ?? (-2, "") }
        }
        client.start()
        #expect(waitUntil(timeout: 10) { held.withLock { $0.count } == 1 })
        #expect(result.current == nil, "answered before the holder answered")
        let pending = try #require(held.withLock { $0.first })
        pending.answer(.text(201, "later"))
        pending.answer(.text(500, "twice"))  // the first answer stays
        #expect(waitUntil(timeout: 10) { result.current != nil })
        #expect(result.current?.status == 201 && result.current?.body == "later", "\(String(describing: result.current))")
    }

    @Test func aClientThatLeavesCancelsTheHold() throws {
        let cancelled = Locked(false)
        let server = try HTTPServer(configuration: .init(address: try HTTPListenAddress(host: "127.0.0.1", port: 0))) { _ in
            let pending = HTTPPendingResponse()
            pending.onCancel { cancelled.withLock { $0 = true } }
            return HTTPResponse(status: 200, body: .pending(pending))
        }
        defer { server.stop() }
        // curl gives up after a second; the server notices the closed socket and cancels.
        let gaveUp = try HTTPServerBodyTests.curl(["-m", "1", "http://127.0.0.1:\(server.port)/wait"])
        #expect(gaveUp.status == 0)
        #expect(waitUntil(timeout: 10) { cancelled.current }, "the hold was not cancelled")
    }
}
#endif
