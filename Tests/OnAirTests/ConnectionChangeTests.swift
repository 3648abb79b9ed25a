import OnAir
import Testing

/// The words a connection change prints (the command line's progress lines).
@Suite struct ConnectionChangeTests {
    @Test func describesEachChangeWithItsDelayInTenthsOfASecond() {
        #expect(ConnectionChange.connected(reconnect: false).description == "connected")
        #expect(ConnectionChange.connected(reconnect: true).description == "reconnected")
        #expect(
            ConnectionChange.lost(reason: "Broken pipe", retryIn: .milliseconds(500)).description
                == "connection lost (Broken pipe); reconnecting in 0.5 s")
        #expect(
            ConnectionChange.attemptFailed(reason: "refused", retryIn: .milliseconds(1999)).description
                == "connect failed (refused); next attempt in 2.0 s")
        #expect(
            ConnectionChange.attemptFailed(reason: "refused", retryIn: .seconds(8)).description
                == "connect failed (refused); next attempt in 8.0 s")
        #expect(ConnectionChange.finishFailed(reason: "EIO").description == "could not finish the stream cleanly (EIO)")
    }
}
