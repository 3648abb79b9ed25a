import Foundation
import OnAirCore

extension LiveSession {
    /// Statistics since the previous call (rates) and since the start (totals).
    public func statistics() -> LiveStatistics {
        let now = clock.elapsed
        lock.lock()
        let current = counters
        let previous = lastSnapshot ?? (0, Counters())
        lastSnapshot = (now, current)
        let (latency, keyLatency) = (encodeLatency, keyFrameEncodeLatency)  // copied: sorted outside the lock
        lock.unlock()
        let interval = max(now - previous.time, 1e-3)
        var stats = LiveStatistics()
        stats.elapsed = now
        stats.framesIn = current.framesIn
        stats.framesOut = current.framesOut
        stats.fpsIn = Double(current.framesIn - previous.counters.framesIn) / interval
        stats.fpsOut = Double(current.framesOut - previous.counters.framesOut) / interval
        stats.droppedFrames = videoQueue.dropped + current.skippedAtSource
        stats.sourceSkippedFrames = current.skippedAtSource
        stats.audioBuffersIn = current.audioIn
        stats.audioFramesOut = current.audioOut
        stats.videoBitRate = Int(Double(8 * (current.videoBytes - previous.counters.videoBytes)) / interval)
        stats.audioBitRate = Int(Double(8 * (current.audioBytes - previous.counters.audioBytes)) / interval)
        let frames = current.encodedFrames - previous.counters.encodedFrames
        stats.encodeLatencyMs = frames > 0 ? (current.encodeSeconds - previous.counters.encodeSeconds) / Double(frames) * 1000 : 0
        stats.encodeLatencyP50Ms = (latency.percentile(50) ?? 0) * 1000
        stats.encodeLatencyP99Ms = (latency.percentile(99) ?? 0) * 1000
        stats.keyFrameEncodeLatencyMs = (keyLatency.percentile(50) ?? 0) * 1000
        stats.keyFramesForced = current.keyFramesForced
        stats.videoQueue = videoQueue.depth
        stats.audioQueue = audioQueue.depth
        stats.sinkQueue = runners.map(\.queue.depth).max() ?? 0
        stats.sinkDroppedPackets = runners.map(\.queue.dropped).reduce(0, +)
        stats.residentBytes = ResidentMemory.current()
        stats.targetBitRate = configuration.video?.averageBitRate ?? 0
        if let applied = appliedBitRateSnapshot() { stats.targetBitRate = applied }
        if let video = currentVideoSettings {
            stats.videoWidth = video.width
            stats.videoHeight = video.height
        }
        for case let sink as any ReconnectingSink in runners.map(\.sink) {
            let connection = sink.connectionStatistics
            stats.networkConnected += connection.isConnected ? 1 : 0
            stats.reconnects += connection.reconnects
            stats.offlineSeconds += connection.offlineSeconds
            stats.networkDroppedPackets += connection.droppedPackets
            stats.backlogSkips += connection.backlogSkips
            stats.networkBytesSent += connection.bytesSent
        }
        for case let sink as any RecordingFiguresSink in runners.map(\.sink) {
            let figures = sink.recordingFigures
            stats.recordingBytesWritten = (stats.recordingBytesWritten ?? 0) + figures.bytesWritten
            stats.recordingSegmentsDeleted = (stats.recordingSegmentsDeleted ?? 0) + figures.segmentsDeleted
        }
        // Everything between the encoder and the wire: OnAir's queue and the transport's buffer.
        (stats.networkQueueSeconds, stats.networkQueueBytes) = links.worstBacklog
        if let snapshot = adaptive?.snapshot {
            stats.bitRateChanges = snapshot.changes
            stats.lastBitRateDecision = snapshot.lastDecision?.summary
            stats.linkEstimate = snapshot.linkEstimate
            stats.queueingDelay = snapshot.worstQueueSeconds
        }
        return stats
    }

    func appliedBitRateSnapshot() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        return appliedBitRate
    }
}
