#if os(Linux)
import Foundation
import OnAir
import OnAirSRT
import OnAirTestSupport
import Testing

/// `srt://…:0?mode=listener`: the listener is bound while the session is built, on a port the
/// system picks, and `Session.waitingForReceivers` names it with that port (what `onair stream`
/// prints), so a receiver knows where to call without a port chosen beforehand.
@Suite struct SRTListenerPortTests {
    @Test func aListenerOnPortZeroIsNamedWithThePortItBound() async throws {
        var settings = SessionSettings()
        settings.video = .synthetic
        settings.audio = .none
        settings.videoEncoder = VideoEncoderSettings(width: 160, height: 120, expectedFrameRate: 15, averageBitRate: 200_000)
        settings.videoEncoder.preset = "ultrafast"
        settings.outputs = ["srt://127.0.0.1:0?mode=listener&latency=20000&passphrase=listener-secret-1"]
        let session = try await SessionBuilder(settings).build()
        defer { _ = try? session.stop() }
        let named = try #require(session.waitingForReceivers.first)
        let port = try #require(URLComponents(string: named)?.port, "\(named)")
        #expect(port > 0, "\(named)")
        #expect(named.hasPrefix("srt://127.0.0.1:\(port)?mode=listener") && named.contains("passphrase=***"), "\(named)")
        // A caller with the passphrase is taken there (libsrt queues it before anyone accepts).
        var options = SRTSocketOptions()
        options.passphrase = "listener-secret-1"
        let caller = try SRTSocket.connect(host: "127.0.0.1", port: UInt16(port), options: options, timeout: .seconds(5))
        defer { caller.close() }
        #expect(caller.state == .connected)
    }
}
#endif
