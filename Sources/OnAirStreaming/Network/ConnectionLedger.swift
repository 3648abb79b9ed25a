#if os(Linux)
import Foundation
import OnAirLive

/// The connection bookkeeping a reconnecting output keeps (`NetworkSink`, `WHIPSink`): whether it
/// has ever connected, the counters `connectionStatistics` reports, and the time offline, which
/// runs from a lost connection to the next one (or to the end). Not thread-safe: the owner holds it
/// under its own lock.
struct ConnectionLedger {
    /// The counters so far (the time offline up to the last connection or end).
    var counters = ConnectionStatistics()
    /// Whether any connection has been made.
    private(set) var everConnected = false
    private var offlineSince: Double?

    /// A connection is up at `now`; returns whether it is a reconnection.
    mutating func connected(at now: Double) -> Bool {
        let reconnect = everConnected
        if reconnect { counters.reconnects += 1 }
        closeOfflineSpell(at: now)
        everConnected = true
        counters.isConnected = true
        return reconnect
    }

    /// The connection was lost at `now`: offline from then on.
    mutating func lost(at now: Double) {
        counters.isConnected = false
        offlineSince = now
    }

    /// The output ends at `now`: no connection, and an offline spell so far is counted.
    mutating func finished(at now: Double) {
        counters.isConnected = false
        closeOfflineSpell(at: now)
    }

    /// The counters as of `now`, an offline spell still running included.
    func snapshot(at now: Double) -> ConnectionStatistics {
        var snapshot = counters
        if let offlineSince { snapshot.offlineSeconds += now - offlineSince }
        return snapshot
    }

    private mutating func closeOfflineSpell(at now: Double) {
        guard let offlineSince else { return }
        counters.offlineSeconds += now - offlineSince
        self.offlineSince = nil
    }
}
#endif
