import Foundation
import OnAirCore

/// The synthetic camera and microphone as a capture source: `SyntheticVideo` frames and
/// `SyntheticAudio` samples delivered on their own threads.
///
/// In real time, frames are captured on a frame-rate grid of the capture clock and stamped with
/// their slot's time (a slot the machine could not keep up with is skipped and reported, so the
/// frame code shows the gap), and
/// audio is produced in 10 ms chunks for the clock's timeline, so every beep starts exactly on a
/// whole second of capture time. Both streams start together: on the clock's zero when the source
/// is started within `startTolerance` of it (a session starts its sources right after making the
/// clock), so the first second's flash and beep are whole however late the threads get going;
/// else at the moment it is started. In real time each frame also carries its wall-clock capture
/// moment in a second code (see `FrameCode.readWallClock(from:)`), so a receiver on the same
/// machine can measure end-to-end latency. With `fast`, both run as fast as the session accepts them, on
/// media time instead of wall time, until `duration`. `audioClockOffsetPPM` makes the audio's
/// sample clock run off the capture clock (see `SyntheticAudio.clockOffsetPPM`), to test drift handling.
package final class SyntheticSource: CaptureSource, Sendable {
    /// Always "synthetic".
    public let name = "synthetic"
    /// The streams generated (video, audio or both).
    public let mediaTypes: Set<MediaType>
    private let video: SyntheticVideo?
    /// Where frames are painted: a pool, so that no pixel memory is allocated per frame.
    public let framePool: VideoFramePool?
    private let audio: SyntheticAudio?
    private let frameRate: Double
    private let fast: Bool
    private let duration: Double?
    private let running = Locked(false)
    private let finished = DispatchGroup()
    /// How long after the capture clock's zero a start still begins the media at zero (seconds).
    public static let startTolerance = 0.25

    /// A source of the given video size and rate and audio format; nil leaves that stream out.
    /// `fast` needs a `duration`.
    public init(
        video: (width: Int, height: Int, frameRate: Double)?, audio: (sampleRate: Int, channels: Int)?,
        fast: Bool = false, duration: Double? = nil, audioClockOffsetPPM: Double = 0
    ) throws {
        self.video = try video.map { try SyntheticVideo(width: $0.width, height: $0.height, frameRate: $0.frameRate) }
        self.audio = try audio.map {
            try SyntheticAudio(sampleRate: $0.sampleRate, channels: $0.channels, clockOffsetPPM: audioClockOffsetPPM)
        }
        framePool = video.map { VideoFramePool(width: $0.width, height: $0.height, pixelFormat: .yuv420p) }
        frameRate = video?.frameRate ?? 30
        self.fast = fast
        self.duration = duration
        var types = Set<MediaType>()
        if video != nil { types.insert(.video) }
        if audio != nil { types.insert(.audio) }
        mediaTypes = types
        if fast && duration == nil {
            throw SettingsError(field: "duration", value: "none", allowed: "a duration with --fast")
        }
    }

    private var isRunning: Bool {
        running.current
    }

    /// Starts generating frames on its own threads, at real-time pace on `clock`, delivering to `handlers`.
    public func start(clock: CaptureClock, handlers: CaptureHandlers) throws {
        running.withLock { $0 = true }
        if fast {
            spawn("onair.synthetic") { [self] in runFast(handlers) }
            return
        }
        let now = clock.elapsed
        let origin = now <= Self.startTolerance ? 0 : now
        let ends = DispatchGroup()
        if let video {
            ends.enter()
            spawn("onair.synthetic.video") { [self] in
                runVideo(video, clock: clock, origin: origin, handlers: handlers)
                ends.leave()
            }
        }
        if let audio {
            ends.enter()
            spawn("onair.synthetic.audio") { [self] in
                runAudio(audio, clock: clock, origin: origin, handlers: handlers)
                ends.leave()
            }
        }
        ends.notify(queue: .global()) { [self] in if duration != nil && isRunning { handlers.ended(nil) } }
    }

    /// Stops generating and waits until nothing more will be delivered.
    public func stop() {
        running.withLock { $0 = false }
        finished.wait()
    }

    private func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
        finished.startThread(named: name, body)
    }

    private func runVideo(_ video: SyntheticVideo, clock: CaptureClock, origin start: Double, handlers: CaptureHandlers) {
        // The wall clock at the capture clock's zero, read once: later wall times follow the
        // monotonic capture clock, so a wall-clock step does not show up as latency.
        let wallClockAtZero = Date().timeIntervalSince1970 - clock.elapsed
        let timelineStart = clock.timelineStart
        var slot = 0
        var previous: MediaTime?
        while isRunning {
            // Like a camera's sensor timestamp, a frame carries the capture-clock time of its
            // slot, not the moment the generator got to it: scheduling jitter never reaches
            // the timestamps.
            let since = start + Double(slot) / frameRate
            let captured = MediaTime(seconds: timelineStart + since)
            clock.sleep(until: captured)
            if let duration, since >= duration { break }
            let wall = Int64(((wallClockAtZero + since) * 1_000_000).rounded())
            handlers.video(paint(video, index: slot, captureTime: captured, previous: previous, wallClock: wall))
            previous = captured
            // A slot already past is skipped (and reported), not delivered late.
            let next = max(slot + 1, Int(((clock.elapsed - start) * frameRate).rounded(.down)))
            // Slots past the end of a `duration` were never due: they are not reported as skipped.
            let due = duration.map { min(next, Int((($0 - start) * frameRate).rounded(.up))) } ?? next
            if due > slot + 1 { handlers.skippedFrames(due - slot - 1) }
            slot = next
        }
    }

    private func paint(
        _ video: SyntheticVideo, index: Int, captureTime: MediaTime, previous: MediaTime?,
        wallClock: Int64?
    ) -> VideoFrame {
        guard let framePool else {
            return video.frame(
                index: index, captureTime: captureTime, previousCaptureTime: previous,
                wallClockMicroseconds: wallClock)
        }
        return video.frame(
            index: index, captureTime: captureTime, previousCaptureTime: previous,
            wallClockMicroseconds: wallClock, pool: framePool)
    }

    private func runAudio(_ audio: SyntheticAudio, clock: CaptureClock, origin: Double, handlers: CaptureHandlers) {
        let rate = audio.deliveredRate
        // Sample 0 at media time 0: a later timeline start begins further along the signal, so its
        // beeps stay on whole seconds of capture time, where the video's flashes are.
        let first = Int64((clock.timelineStart * rate).rounded())
        var next = Int64((origin * rate).rounded(.down))
        while isRunning {
            Thread.sleep(forTimeInterval: 0.01)
            var due = Int64((clock.elapsed * rate).rounded(.down))
            if let duration { due = min(due, Int64(duration * rate)) }
            // At most 10 ms per buffer, like a microphone: after a stall (a starved machine) the
            // backlog arrives as many small buffers, so the session's bounded audio queue bounds
            // its memory too, instead of holding a few huge ones.
            let chunk = Int64(max(1, audio.sampleRate / 100))
            while due > next, isRunning {
                let count = min(chunk, due - next)
                handlers.audio(audio.samples(startingAt: first + next, count: Int(count)))
                next += count
            }
            if let duration, Double(next) >= duration * rate { break }
        }
    }

    /// Media time, no pacing: whichever stream is behind gets the next item.
    private func runFast(_ handlers: CaptureHandlers) {
        let end = duration ?? 0
        let chunk = 1024
        var frame = 0
        var sample: Int64 = 0
        var previous: MediaTime?
        while isRunning {
            let videoTime = video != nil ? Double(frame) / frameRate : .infinity
            // Audio is done once its last sample is out (with a clock offset, that sample's time
            // can fall just short of `end`).
            let audioTime =
                audio.map { sample < Int64(end * $0.deliveredRate) ? Double(sample) / $0.deliveredRate : .infinity } ?? .infinity
            if min(videoTime, audioTime) >= end { break }
            if videoTime <= audioTime, let video {
                let captured = MediaTime(value: Int64((videoTime * 1_000_000).rounded()), timescale: 1_000_000)
                handlers.video(paint(video, index: frame, captureTime: captured, previous: previous, wallClock: nil))
                previous = captured
                frame += 1
            } else if let audio {
                let remaining = Int64(end * audio.deliveredRate) - sample
                let count = Int(min(Int64(chunk), remaining))
                handlers.audio(audio.samples(startingAt: sample, count: count))
                sample += Int64(count)
            }
        }
        if isRunning { handlers.ended(nil) }
    }
}
