#if os(Linux)
import Foundation
import OnAirCore

#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
import OnAirLive

/// Receives and decodes anything libavformat opens — a file, `udp://`, `tcp://`, `srt://`,
/// `rtmp://`, HLS over HTTP — and keeps receiver statistics: frames, rates, decode errors,
/// freezes and, for the live synthetic source, end-to-end latency.
///
/// Opening, reading and decoding run on one dedicated thread (they block); `statistics()`,
/// `report()` and `stop()` may be called from any thread.
/// Unchecked Sendable: the AVFormatContext and decoders are used only on the player's thread; shared vars under `lock`
public final class Player: @unchecked Sendable {
    /// What to play and what to do with it.
    public struct Configuration: Sendable {
        /// The input: a path or any URL libavformat opens.
        public var url: String
        /// Stop after this much received media (nil: until the input ends or `stop()`).
        public var duration: Duration?
        /// Read each frame's wall-clock code and measure latency (see `FrameCode.readWallClock`).
        public var measureLatency = false
        /// Write decoded video (`.y4m`), decoded audio (`.wav`) or a copy of the packets
        /// (`.mp4`, `.mov`, `.ts`, `.mkv`).
        public var output: String?
        /// Hardware video decoding: any that opens (default), none, or one device type.
        public var hardware: HardwareDecoding = .automatic
        /// Fail when nothing is decoded within this long of starting.
        public var openTimeout: Duration = .seconds(10)
        /// For a live input: when it ends or fails, open it again (until `stop()`) instead of
        /// finishing; the sink is told (`inputLost`).
        public var reconnect = false
        /// Creates a configuration for `url`.
        public init(url: String) { self.url = url }
    }

    /// The configuration the player runs with.
    public let configuration: Configuration
    /// Where decoded media also goes (the window and speakers); set before `start()`.
    package var sink: (any PlaybackSink)?
    let lock = NSLock()
    let interrupt = CaptureInterrupt()
    private let done = DispatchSemaphore(value: 0)
    private var isDone = false
    private var started = false
    private var startWall = 0.0
    private var failure: (any Error)?

    // Guarded by `lock`.
    var stats = PlaybackStatistics()
    var freeze = FreezeDetector(frameRate: nil)
    var backlog = BacklogDetector(frameDuration: 1.0 / 30)
    var latency = LatencyStatistics()
    var firstFrameWall: Double?
    private var lastFrameWall: Double?
    private var window: (wall: Double, frames: Int, bytes: Int) = (0, 0, 0)
    var firstVideoPTS: Double?, lastVideoPTS: Double?
    var firstAudioPTS: Double?, lastAudioPTS: Double?
    var videoInfo: PlaybackReport.Video?
    var audioInfo: PlaybackReport.Audio?
    var changes = PlaybackReport.Changes()
    var lastPictureSize: (width: Int, height: Int)?
    var lastAudioFormat: (rate: Int, channels: Int)?
    var reachedEnd = false
    var durationReached = false

    /// Checks the configuration (the output's kind) without opening anything. `containerMuxer`
    /// names the libavformat muxer for a container file's extension (nil: not a container OnAir
    /// writes) for `-o` copies; the `OnAir` module's initializer without it reads the output registry.
    package init(configuration: Configuration, containerMuxer: @escaping @Sendable (String) -> String?) throws(PlaybackError) {
        self.containerMuxer = containerMuxer
        if let output = configuration.output, Self.outputKind(output, containerMuxer: containerMuxer) == nil {
            throw PlaybackError.unknownOutput(output)
        }
        self.configuration = configuration
    }

    /// The libavformat muxer for a container file's extension (see `init`).
    let containerMuxer: @Sendable (String) -> String?

    /// What `-o` writes: decoded video, decoded audio, or a copy of the packets in a muxer.
    enum OutputKind { case y4m, wav, copy(String) }

    /// The kind of output `path` names by its extension (nil: none the player writes).
    static func outputKind(_ path: String, containerMuxer: (String) -> String?) -> OutputKind? {
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        switch ext {
        case "y4m": return .y4m
        case "wav": return .wav
        default: return containerMuxer(ext).map { .copy($0) }
        }
    }

    /// Wall-clock seconds since 1970.
    static var wallNow: Double { Date().timeIntervalSince1970 }

    /// Starts receiving on a dedicated thread; errors (including failing to open) show up in `error`.
    public func start() {
        lock.lock()
        guard !started else { lock.unlock(); return }
        started = true
        startWall = Self.wallNow
        window.wall = startWall
        lock.unlock()
        let thread = Thread { [self] in
            let retries = configuration.reconnect && PlaybackInput.isLive(configuration.url)
            while true {
                var lost: String?
                do {
                    try run()
                    lost = "input ended"
                } catch {
                    // An error caused by our own stop request is not a failure.
                    if !(interrupt.isRaised && (error as? FFmpegError)?.code == CaptureInterrupt.exitCode) {
                        lost = "\(error)"
                        if !retries {
                            lock.lock()
                            failure = error
                            lock.unlock()
                        }
                    }
                }
                lock.lock()
                let finishedByDuration = durationReached
                lock.unlock()
                guard retries, let lost, !interrupt.isRaised, !finishedByDuration else { break }
                sink?.inputLost(reason: lost)
                // Wait a little before opening again (interruptible by `stop()`).
                for _ in 0..<10 where !interrupt.isRaised { Thread.sleep(forTimeInterval: 0.05) }
            }
            sink?.inputEnded()
            lock.lock()
            isDone = true
            lock.unlock()
            done.signal()
        }
        thread.name = "onair.play"
        thread.start()
    }

    /// Waits up to `timeout` seconds for the player to finish; true once it has.
    public func wait(timeout: Double) -> Bool {
        if done.wait(timeout: .now() + timeout) == .success {
            done.signal()  // stays signalled for later waits
            return true
        }
        return false
    }

    /// Asks the player to stop (ending a blocked open or read) and waits for its thread.
    public func stop() {
        interrupt.raise()
        lock.lock()
        let running = started
        lock.unlock()
        if running { _ = wait(timeout: 30) }
    }

    /// The error that ended playback, if any.
    public var error: (any Error)? {
        lock.lock()
        defer { lock.unlock() }
        return failure
    }

    /// Seconds since the first decoded video frame or audio buffer (nil before it).
    public var secondsSinceFirstFrame: Double? {
        lock.lock()
        defer { lock.unlock() }
        return firstFrameWall.map { Self.wallNow - $0 }
    }

    /// Seconds since `start()`.
    public var secondsSinceStart: Double {
        lock.lock()
        defer { lock.unlock() }
        return Self.wallNow - startWall
    }

    /// Statistics now; the per-second rates cover the time since the previous call.
    public func statistics() -> PlaybackStatistics {
        lock.lock()
        defer { lock.unlock() }
        let now = Self.wallNow
        checkStallLocked(now: now)
        var result = stats
        result.elapsed = now - startWall
        let span = now - window.wall
        if span > 0 {
            result.fpsNow = Double(stats.frames - window.frames) / span
            result.bitrateKbpsNow = Double(stats.bytes - window.bytes) * 8 / 1000 / span
        }
        window = (now, stats.frames, stats.bytes)
        result.freezes = freeze.freezes
        return result
    }

    private func checkStallLocked(now: Double) {
        guard !reachedEnd, !isDone else { stats.stalled = false; return }
        stats.stalled = freeze.checkStall(wall: now)
    }

    /// The totals so far (final once the player has finished).
    public func report() -> PlaybackReport {
        lock.lock()
        defer { lock.unlock() }
        let videoSpan = zip(firstVideoPTS, lastVideoPTS).map { $1 - $0 }
        let fps = videoSpan.flatMap { $0 > 0 && stats.frames > 1 ? Double(stats.frames - 1) / $0 : nil } ?? 0
        var duration = 0.0
        if let videoSpan {
            duration = videoSpan + (fps > 0 ? 1 / fps : 0)
        } else if let first = firstAudioPTS, let last = lastAudioPTS {
            duration = last - first
        }
        let latencyReport = latency.percentile(50).map { p50 in
            PlaybackReport.Latency(
                p50: Self.round(p50 * 1000), p95: Self.round((latency.percentile(95) ?? p50) * 1000),
                max: Self.round((latency.maximum ?? p50) * 1000), samples: latency.count,
                startupFrames: backlog.backlogFrames)
        }
        return PlaybackReport(
            url: configuration.url, frames: stats.frames, fps: Self.round(fps), duration: Self.round(duration),
            bitrateKbps: duration > 0 ? Self.round(Double(stats.bytes) * 8 / 1000 / duration) : 0,
            decodeErrors: stats.decodeErrors, damagedPackets: stats.damagedPackets,
            packetsBeforeKeyFrame: stats.packetsBeforeKeyFrame, freezes: freeze.freezes,
            audioSamples: stats.audioSamples, video: videoInfo, audio: audioInfo, latencyMs: latencyReport,
            changes: changes)
    }

    private static func round(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    private func zip(_ a: Double?, _ b: Double?) -> (Double, Double)? {
        guard let a, let b else { return nil }
        return (a, b)
    }
}
#endif
#endif
