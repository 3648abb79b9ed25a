#if os(Linux)
#if canImport(OnAirGStreamer)
import OnAirGStreamer

/// The limits an RTSP server puts on its connections that gst-rtsp-server 1.22 does not: its
/// decisions, on figures read from each connection's socket and media by the caller
/// (OnAirGStreamer's `RTSPServerGuard`, through its `RTSPConnectionPolicy`), at times the caller
/// passes in.
///
/// A connection's request still arriving is what no gst-rtsp-server API sees, so it is measured:
///
///     pending = bytes the connection took from its socket since its last complete request
///             − interleaved RTP/RTCP bytes its media took since then (not requests)
///
/// More than `requestBytes` pending, or anything pending for longer than `requestSeconds`, cuts
/// the connection; so does one without a session that has asked nothing for longer than
/// `idleSeconds`, and one sending interleaved data faster than RTCP ever needs (more than
/// `dataPerSecond` in a window of a second or more). Past `connections` open at once, a new one is
/// cut on arrival. Not thread-safe: the caller serialises its calls.
package struct RTSPGuardPolicy: Sendable {
    /// What a connection may do.
    package struct Limits: Sendable, Equatable {
        /// Connections open at once (more are cut as they arrive).
        package var connections: Int
        /// Bytes of one request still arriving (more: cut).
        package var requestBytes: UInt64
        /// Seconds from a request's first byte to its last (longer: cut).
        package var requestSeconds: Double
        /// Seconds without a request on a connection without a session (longer: cut).
        package var idleSeconds: Double
        /// Interleaved bytes in a window of a second (more: cut).
        package var dataPerSecond: UInt64

        /// Limits with interleaved data up to 1 MiB a second.
        package init(
            connections: Int, requestBytes: UInt64, requestSeconds: Double, idleSeconds: Double,
            dataPerSecond: UInt64 = 1024 * 1024
        ) {
            self.connections = connections
            self.requestBytes = requestBytes
            self.requestSeconds = requestSeconds
            self.idleSeconds = idleSeconds
            self.dataPerSecond = dataPerSecond
        }
    }

    /// One reading of a connection: running totals since it opened (the idle limit applies only
    /// without a session).
    package typealias Sample = RTSPConnectionSample

    /// Why a connection is cut.
    package enum Reason: Sendable, Equatable {
        case tooManyConnections, requestTooLarge, requestTooSlow, idle, dataTooFast
    }

    /// What to do with a connection.
    package enum Verdict: Sendable, Equatable {
        /// Leave it be (also said of one cut already, or unknown: nothing more to do).
        case keep
        /// End it: it has gone past a limit.
        case cut(Reason)
    }

    /// What the policy keeps of one connection.
    struct Connection {
        var consumedMark: UInt64  // bytes taken from the socket when the last request ended
        var dataMark: UInt64  // interleaved bytes then
        var pendingSince: Double?  // since part of a request has been waiting
        var quietSince: Double  // the last complete request (or the connection's start)
        var windowStart: Double  // the current window of interleaved data, and the bytes at its start
        var windowData: UInt64
        var cut = false
    }

    /// The limits judged by.
    package let limits: Limits
    private var connections: [UInt64: Connection] = [:]

    /// A policy with no connection open yet.
    package init(limits: Limits) {
        self.limits = limits
    }

    /// Connections open (cut ones included, until they close).
    package var open: Int { connections.count }

    /// A new connection `id` with its first reading: `.cut(.tooManyConnections)` when
    /// `limits.connections` are open already. Counted either way, until `close(_:)`.
    package mutating func open(_ id: UInt64, _ sample: Sample, now: Double) -> Verdict {
        let before = connections.count
        connections[id] = Connection(
            consumedMark: sample.consumed, dataMark: sample.data, quietSince: now, windowStart: now, windowData: sample.data)
        guard before >= limits.connections else { return .keep }
        connections[id]?.cut = true
        return .cut(.tooManyConnections)
    }

    /// Connection `id` closed.
    package mutating func close(_ id: UInt64) {
        connections[id] = nil
    }

    /// Connection `id` has a complete request: the bytes it took for it (interleaved data not
    /// counted), nil for an unknown connection. The next request is measured from here.
    package mutating func requestDone(_ id: UInt64, _ sample: Sample, now: Double) -> UInt64? {
        guard var connection = connections[id] else { return nil }
        let size = UInt64(max(0, Self.pending(connection, sample)))
        connection.consumedMark = sample.consumed
        connection.dataMark = sample.data
        connection.pendingSince = nil
        connection.quietSince = now
        connections[id] = connection
        return size
    }

    /// Judges connection `id` on a reading taken `now`. A cut connection stays counted (and is
    /// kept from then on) until `close(_:)`.
    package mutating func judge(_ id: UInt64, _ sample: Sample, now: Double) -> Verdict {
        guard var connection = connections[id], !connection.cut else { return .keep }
        let verdict = Self.judge(&connection, sample, now: now, limits: limits)
        if verdict != .keep { connection.cut = true }
        connections[id] = connection
        return verdict
    }

    private static func judge(_ connection: inout Connection, _ sample: Sample, now: Double, limits: Limits) -> Verdict {
        if now - connection.windowStart >= 1 {
            if difference(sample.data, connection.windowData) > Int64(clamping: limits.dataPerSecond) { return .cut(.dataTooFast) }
            connection.windowStart = now
            connection.windowData = sample.data
        }
        let pending = pending(connection, sample)
        if pending > Int64(clamping: limits.requestBytes) { return .cut(.requestTooLarge) }
        if pending > 0 {
            guard let since = connection.pendingSince else {
                connection.pendingSince = now
                return .keep
            }
            return now - since > limits.requestSeconds ? .cut(.requestTooSlow) : .keep
        }
        connection.pendingSince = nil
        return !sample.hasSession && now - connection.quietSince > limits.idleSeconds ? .cut(.idle) : .keep
    }

    /// Bytes of a request still arriving (negative when the reading predates the marks).
    static func pending(_ connection: Connection, _ sample: Sample) -> Int64 {
        let consumed = difference(sample.consumed, connection.consumedMark)
        let data = difference(sample.data, connection.dataMark)
        return consumed.subtractingReportingOverflow(data).overflow ? (consumed < 0 ? .min : .max) : consumed - data
    }

    /// `a − b`, saturated to Int64.
    static func difference(_ a: UInt64, _ b: UInt64) -> Int64 {
        a >= b ? Int64(clamping: a - b) : (b - a > UInt64(Int64.max) ? .min : -Int64(b - a))
    }
}

extension RTSPGuardPolicy.Limits {
    /// The limits of a server with `configuration`: a request may be four times the header limit
    /// plus the body limit while it arrives (gst-rtsp-server keeps every header line until the
    /// request ends); without a session timeout a connection may idle for a minute.
    package init(_ configuration: RTSPServerConfiguration) {
        self.init(
            connections: configuration.connectionLimit,
            requestBytes: UInt64(max(0, configuration.headerLimit * 4 + configuration.contentLengthLimit)),
            requestSeconds: configuration.requestTimeout,
            idleSeconds: Double(configuration.sessionTimeout > 0 ? configuration.sessionTimeout : 60))
    }
}

extension RTSPGuardPolicy: RTSPConnectionPolicy {
    package mutating func admits(_ id: UInt64, _ sample: RTSPConnectionSample, now: Double) -> Bool {
        open(id, sample, now: now) == .keep
    }

    package mutating func keeps(_ id: UInt64, _ sample: RTSPConnectionSample, now: Double) -> Bool {
        judge(id, sample, now: now) == .keep
    }
}
#endif
#endif
