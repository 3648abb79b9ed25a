#if os(Linux)
import Foundation
import OnAirCore

/// Plays anything FFmpeg reads (a file or URL) as if it were being captured live: video and
/// audio from one input, paced at real time on the session's `CaptureClock`.
///
/// An item whose file timestamp is `p` is delivered at session time `start + p − firstPTS`
/// (and stamped with that time), where `start` is the clock's time when `start` was called and
/// `firstPTS` the earliest timestamp at the beginning of the file. At the end `handlers.ended(nil)`
/// is called, unless `loop` is set, in which case the file starts over seamlessly.
package final class FileSource: CaptureSource, Sendable {
    /// The file path or URL.
    package let path: String
    /// A libavformat input format to force, or nil to detect it.
    package let format: String?
    /// Demuxer options.
    package let options: [String: String]
    /// The size video frames are delivered at, or nil for the file's own size.
    package let outputSize: (width: Int, height: Int)?
    /// Whether the file starts over when it ends.
    package let loop: Bool
    /// The streams the file has that are read (video, audio or both).
    package let mediaTypes: Set<MediaType>
    /// "file:" and the path, for statistics and messages.
    package var name: String { "file:\(path)" }

    private let slot = CaptureRunnerSlot()

    /// Creates a source for `path` delivering the media in `mediaTypes` (each must be in the file).
    package init(
        path: String, format: String? = nil, options: [String: String] = [:],
        mediaTypes: Set<MediaType> = [.video, .audio], outputSize: (width: Int, height: Int)? = nil,
        loop: Bool = false
    ) {
        self.path = path
        self.format = format
        self.options = options
        self.mediaTypes = mediaTypes
        self.outputSize = outputSize
        self.loop = loop
    }

    /// Opens the file and starts delivering its decoded frames to `handlers` on a reading thread, stamped on `clock`.
    package func start(clock: CaptureClock, handlers: CaptureHandlers) throws(CaptureError) {
        if mediaTypes.isEmpty {
            throw .invalidConfiguration(source: name, problem: "choose video, audio or both")
        }
        let runner = try slot.claim(sourceName: name, handlers: handlers, outputSize: outputSize)
        let start = clock.now()
        let plan = Plan(
            path: path, format: format, options: options, mediaTypes: mediaTypes,
            output: outputSize.map { MediaFileDecoder.VideoOutput(width: $0.width, height: $0.height) },
            loop: loop, name: name)
        try runner.start { runner in
            plan.play(start: start, clock: clock, runner: runner)
        }
    }

    /// Stops reading and waits until nothing more will be delivered.
    package func stop() {
        slot.stop()
    }
}

/// What to play; the playback loop that runs on the capture thread.
private struct Plan: Sendable {
    var path: String, format: String?, options: [String: String]
    var mediaTypes: Set<MediaType>
    var output: MediaFileDecoder.VideoOutput?
    var loop: Bool
    var name: String

    /// How many items are read ahead to find the earliest timestamp of a pass.
    static let lookahead = 16
    /// The longest single sleep while pacing, in microseconds.
    static let sleepStep: Int64 = 50_000

    func open(interrupt: CaptureInterrupt) -> Result<MediaFileDecoder, CaptureError> {
        let (result, log) = FFmpegLogCapture.capturing { () -> Result<MediaFileDecoder, any Error> in
            Result {
                try MediaFileDecoder(
                    path: path, format: format, options: options,
                    decodeVideo: mediaTypes.contains(.video), decodeAudio: mediaTypes.contains(.audio),
                    videoOutput: output, interrupt: interrupt)
            }
        }
        switch result {
        case .failure(let error):
            return .failure(.openFailed(source: name, error: FFmpegError.wrapping(error), log: log))
        case .success(let decoder):
            for type in mediaTypes.sorted(by: { $0.rawValue > $1.rawValue }) {
                let stream = type == .video ? decoder.videoStream : decoder.audioStream
                if stream == nil { return .failure(.missingStream(source: name, mediaType: type)) }
            }
            return .success(decoder)
        }
    }

    func play(start: MediaTime, clock: CaptureClock, runner: CaptureRunner) {
        var decoder: MediaFileDecoder
        switch open(interrupt: runner.interrupt) {
        case .failure(let error):
            runner.reportOpened(error)
            return
        case .success(let opened):
            decoder = opened
        }
        runner.reportOpened(nil)
        // Session time (µs) at which the current pass's firstPTS is due.
        var passStart = start.converted(to: 1_000_000).value
        while runner.isRunning {
            // Read ahead a little to find the earliest timestamp (audio may start before video).
            var pending: [MediaFileDecoder.Output] = []
            var reachedEnd = false
            do {
                while pending.count < Self.lookahead, let item = try decoder.next() { pending.append(item) }
                reachedEnd = pending.count < Self.lookahead
            } catch {
                if !runner.interrupt.isRaised { runner.end(CaptureError.readFailed(source: name, error: .wrapping(error))) }
                return
            }
            let firstPTS = pending.map { Self.micros($0) }.min() ?? 0
            var passEnd = passStart
            let frameDuration = decoder.videoStream?.averageFrameRate.map { Int64(1_000_000 / $0) } ?? 0
            while runner.isRunning {
                let item: MediaFileDecoder.Output
                if !pending.isEmpty {
                    item = pending.removeFirst()
                } else if reachedEnd {
                    break
                } else {
                    do {
                        guard let next = try decoder.next() else { break }
                        item = next
                    } catch {
                        if !runner.interrupt.isRaised { runner.end(CaptureError.readFailed(source: name, error: .wrapping(error))) }
                        return
                    }
                }
                let due = MediaTime(value: passStart + Self.micros(item) - firstPTS, timescale: 1_000_000)
                // Sleep in short steps so that stop() is noticed during long gaps.
                while runner.isRunning, clock.now() < due {
                    clock.sleep(until: min(due, MediaTime(value: clock.now().value + Self.sleepStep, timescale: 1_000_000)))
                }
                switch item {
                case .video(var frame):
                    frame.pts = due
                    passEnd = max(passEnd, due.value + frameDuration)
                    runner.deliver(frame)
                case .audio(var buffer):
                    buffer.pts = due
                    passEnd = max(passEnd, due.value + buffer.duration.converted(to: 1_000_000).value)
                    runner.deliver(buffer)
                }
            }
            guard runner.isRunning else { return }
            guard loop else {
                runner.end(nil)
                return
            }
            switch open(interrupt: runner.interrupt) {
            case .failure(let error):
                runner.end(error)
                return
            case .success(let reopened):
                decoder = reopened
            }
            passStart = passEnd
        }
    }

    static func micros(_ item: MediaFileDecoder.Output) -> Int64 {
        switch item {
        case .video(let frame): return frame.pts.converted(to: 1_000_000).value
        case .audio(let buffer): return buffer.pts.converted(to: 1_000_000).value
        }
    }
}
#endif
