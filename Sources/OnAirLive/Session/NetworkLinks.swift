import Foundation
import OnAirCore

/// A session's network outputs: each behind its own queue that drops its oldest packets when
/// full (a slow link never holds up the encoders), one `TransportSampler` reading every
/// transport, and for each output that reconnects a `BacklogBound`. Adaptive bitrate reads the
/// links here (`measurements()`) and may cut their backlogs (`requestSkip`).
final class NetworkLinks: Sendable {
    let runners: [SinkRunner]
    private let sinks: [(any ReconnectingSink)?]
    private let bounds: [BacklogBound?]
    private let sampler: TransportSampler

    /// `failed(sink)` is the handler told when that sink fails (nil: nobody listens).
    init(
        sinks: [any PacketSink], capacity: Int, maximumBacklog: Double?,
        failed: (any PacketSink) -> (@Sendable (any Error) -> Void)?
    ) {
        let reconnecting = sinks.map { $0 as? any ReconnectingSink }
        let sampler = TransportSampler(sinks: reconnecting)
        let bounds: [BacklogBound?] = reconnecting.enumerated().map { link, sink in
            guard let sink else { return nil }
            return BacklogBound(sink: sink, maximumBacklog: maximumBacklog, transportSeconds: { sampler.reading(link).seconds })
        }
        var runners: [SinkRunner] = []
        for (link, sink) in sinks.enumerated() {
            var beforeWrite: SinkRunner.BeforeWrite?
            if let bound = bounds[link] {
                beforeWrite = { packet, newest in bound.check(packet, newest: newest) }
            }
            runners.append(
                SinkRunner(
                    sink: sink, capacity: capacity, dropWhenFull: true, beforeWrite: beforeWrite, failed: failed(sink)))
        }
        self.runners = runners
        self.sinks = reconnecting
        self.bounds = bounds
        self.sampler = sampler
    }

    var isEmpty: Bool { runners.isEmpty }

    /// Starts the transport sampler (the runners start with the session's other sinks).
    func start() { sampler.start() }

    /// Stops the transport sampler.
    func stop() { sampler.stop() }

    /// Cuts the backlog of these links (indices into `runners`) before their next packet.
    func requestSkip(links: [Int]) {
        for link in links where link < bounds.count { bounds[link]?.requestSkip() }
    }

    /// Tells the outputs the stream's planned rate, for transports that pace their sending to it
    /// (SRT); a transport that refuses is reported to `notices`, and sends unpaced.
    func pace(streamBitRate: Int, notices: ((String) -> Void)?) {
        for case let sink? in sinks {
            do { try sink.setPacingRate(bitsPerSecond: streamBitRate) } catch {
                notices?("\(sink.destination): pacing to \(streamBitRate / 1000) kb/s failed: \(error)")
            }
        }
    }

    /// One reading per link: bytes sent, the backlog waiting for it, whether it is connected, and
    /// the sampler's latest transport reading.
    func measurements() -> [(link: Int, measurement: LinkMeasurement)] {
        let now = ProcessInfo.processInfo.systemUptime
        return runners.enumerated().map { link, runner in
            let backlog = runner.backlog
            let connection = sinks[link]?.connectionStatistics
            return (
                link,
                LinkMeasurement(
                    time: now, bytesSent: connection?.bytesSent ?? backlog.written,
                    queuedSeconds: backlog.seconds, queuedBytes: backlog.bytes,
                    isConnected: connection?.isConnected ?? true,
                    transport: sampler.reading(link).measurement)
            )
        }
    }

    /// The worst link's wait between the encoder and the wire: OnAir's queue and the transport's buffer.
    var worstBacklog: (seconds: Double, bytes: Int) {
        var worst = (seconds: 0.0, bytes: 0)
        for (link, runner) in runners.enumerated() {
            let queued = runner.backlog, transport = sampler.reading(link)
            worst.seconds = max(worst.seconds, queued.seconds + transport.seconds)
            worst.bytes = max(worst.bytes, queued.bytes + transport.bytes)
        }
        return worst
    }
}
