#if os(Linux)
import Foundation
import OnAirSRT
import OnAirTestSupport
import Testing

@testable import OnAirServing

/// The SRT face across reloads (issue 33): a listener started without a passphrase asks for the
/// newest token once a reload lists one (a caller without it is refused by libsrt's handshake),
/// stops asking when the server is open again, and admits no one while credentials are asked for
/// that no token can answer (a users-only server).
@Suite(.serialized) struct ServeSRTPassphraseReloadTests {
    @Test func aListenerStartedOpenTakesAPassphraseFromAReloadAndDropsItWhenOpenAgain() throws {
        let hub = ServeHub(formats: [.mpegTS])
        let listener = try ServeSRTListener(host: "127.0.0.1", port: 0, passphrase: nil, hub: hub)
        defer { listener.stop() }
        var callers: [SRTSocket] = []
        defer { for caller in callers { caller.close() } }
        func call(_ passphrase: String?) -> Bool {
            var options = SRTSocketOptions()
            options.passphrase = passphrase
            options.latencyMilliseconds = 80
            guard
                let caller = try? SRTSocket.connect(host: "127.0.0.1", port: UInt16(listener.port), options: options, timeout: .seconds(3))
            else { return false }
            callers.append(caller)
            return true
        }
        func admitted() -> [String] { hub.statistics().viewers.compactMap(\.admittedBy) }

        #expect(call(nil))
        #expect(waitUntil(timeout: 5) { admitted() == ["anyone"] }, "\(admitted())")
        #expect(listener.setTokens([(secret: "srt-reload-token", number: 1)], open: false))
        #expect(!listener.isLocked)
        #expect(!call(nil), "a caller without the passphrase was let in")
        #expect(call("srt-reload-token"))
        #expect(waitUntil(timeout: 5) { admitted() == ["anyone", "token #1"] }, "\(admitted())")
        #expect(!call("another-passphrase"))
        // Open again (no token, no user): no passphrase asked.
        #expect(listener.setTokens([], open: true))
        #expect(call(nil))
        // Users only: nothing SRT can check, no one let in.
        #expect(!listener.setTokens([], open: false))
        #expect(listener.isLocked)
        #expect(!call(nil) && !call("srt-reload-token"))
    }

    @Test func aCutWHEPSessionIsRememberedOnceAndTheOldestIsForgotten() {
        var cut = WHEPCutSessions()
        cut.insert("a")
        cut.insert("a")
        let first = cut.take("a"), again = cut.take("a"), never = cut.take("b")
        #expect(first && !again && !never)
        for index in 0...WHEPCutSessions.capacity { cut.insert("id-\(index)") }
        let oldest = cut.take("id-0"), next = cut.take("id-1"), newest = cut.take("id-\(WHEPCutSessions.capacity)")
        #expect(!oldest, "the oldest beyond the capacity is forgotten")
        #expect(next && newest)
        #expect(WHEPEndpoint.sessionID("/whep/abc") == "abc")
        #expect(WHEPEndpoint.sessionID("/whep/") == nil && WHEPEndpoint.sessionID("/whep") == nil)
        #expect(WHEPEndpoint.sessionID("/whep/a/b") == nil)
    }
}
#endif
