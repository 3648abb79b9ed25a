#if os(Linux)
import OnAirLive
import Testing

@testable import OnAirStreaming

/// The connection bookkeeping shared by NetworkSink and WHIPSink, on times given by the test.
@Suite struct ConnectionLedgerTests {
    @Test func countsReconnectionsAndTheTimeOfflineBetweenThem() {
        var ledger = ConnectionLedger()
        #expect(!ledger.everConnected && !ledger.snapshot(at: 0).isConnected)
        #expect(ledger.connected(at: 1) == false)  // the first connection is no reconnection
        #expect(ledger.everConnected && ledger.snapshot(at: 2).isConnected)
        ledger.lost(at: 10)
        // Offline while the spell runs, counted in the snapshot but not yet in the counters.
        #expect(ledger.snapshot(at: 12.5).offlineSeconds == 2.5 && !ledger.snapshot(at: 12.5).isConnected)
        #expect(ledger.counters.offlineSeconds == 0)
        #expect(ledger.connected(at: 14) == true)
        #expect(ledger.counters.reconnects == 1 && ledger.counters.offlineSeconds == 4)
        #expect(ledger.snapshot(at: 100).offlineSeconds == 4)  // online again: no more offline time
        ledger.lost(at: 20)
        ledger.finished(at: 23)
        #expect(ledger.counters.offlineSeconds == 7 && !ledger.counters.isConnected)
        #expect(ledger.snapshot(at: 50).offlineSeconds == 7)  // the end closes the spell
    }

    @Test func anOutputThatNeverConnectedHasNoOfflineSpellToClose() {
        var ledger = ConnectionLedger()
        ledger.finished(at: 5)
        #expect(ledger.counters == ConnectionStatistics() && !ledger.everConnected)
    }
}
#endif
