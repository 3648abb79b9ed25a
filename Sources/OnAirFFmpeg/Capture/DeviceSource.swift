#if os(Linux)
import Foundation
import OnAirCore

/// Captures from a libavdevice input — a V4L2 camera, an ALSA or PulseAudio microphone, or an
/// X11 screen — on its own thread.
///
/// Video is converted to yuv420p at the requested size, audio is delivered as PCM, and every
/// item is stamped on the session's `CaptureClock` (see `DeviceTimestampMapper`). Open errors
/// (no such device, busy, permission) are thrown from `start` with FFmpeg's message; errors
/// after that arrive through `handlers.ended`. `stop()` returns promptly even when a read blocks.
package final class DeviceSource: CaptureSource, Sendable {
    /// The libavdevice input formats OnAir captures from.
    package enum Kind: String, Sendable, Codable, CaseIterable {
        /// Video4Linux2 camera (`/dev/videoN`).
        case v4l2
        /// ALSA capture device (`default`, `hw:0`, `plughw:1,0`).
        case alsa
        /// PulseAudio source (`default`, `alsa_input.…`, `<sink>.monitor`).
        case pulse
        /// X11 screen (`:0`, `:99.0+10,20`).
        case x11grab

        /// The kind of media this input delivers.
        package var mediaType: MediaType {
            switch self {
            case .v4l2, .x11grab: return .video
            case .alsa, .pulse: return .audio
            }
        }
    }

    /// What to open and how.
    package let kind: Kind
    /// The device as libavdevice names it: a path, an ALSA/Pulse name or an X display.
    package let device: String
    /// Options passed to the device (`video_size`, `framerate`, `sample_rate`, `channels`, …).
    package let options: [String: String]
    /// The size video frames are delivered at, or nil for the device's own size.
    package let outputSize: (width: Int, height: Int)?

    /// The kind and device, e.g. "v4l2:/dev/video0", for statistics and messages.
    package var name: String { "\(kind.rawValue):\(device)" }
    /// The one stream the device gives: video for V4L2 and X11, audio for ALSA and PulseAudio.
    package var mediaTypes: Set<MediaType> { [kind.mediaType] }

    private let slot = CaptureRunnerSlot()

    /// Creates a source for `device` of `kind` with raw libavdevice `options`; `outputSize` scales video.
    package init(
        kind: Kind, device: String, options: [String: String] = [:],
        outputSize: (width: Int, height: Int)? = nil
    ) {
        self.kind = kind
        self.device = device
        self.options = options
        self.outputSize = outputSize
    }

    /// A V4L2 camera at `path`, asking it for `size`, `frameRate` and a pixel/compressed `inputFormat`
    /// (e.g. "yuyv422", "mjpeg"); frames are scaled to `size` if the camera picks another.
    package static func camera(
        path: String, size: (width: Int, height: Int)? = nil, frameRate: Double? = nil,
        inputFormat: String? = nil
    ) -> DeviceSource {
        var options: [String: String] = [:]
        if let size { options["video_size"] = "\(size.width)x\(size.height)" }
        if let frameRate { options["framerate"] = Self.rateString(frameRate) }
        if let inputFormat { options["input_format"] = inputFormat }
        return DeviceSource(kind: .v4l2, device: path, options: options, outputSize: size)
    }

    /// An X11 screen: `display` such as ":99" or ":99.0+10,20" (offset of the captured area),
    /// `size` of the area (default: the whole screen), `frameRate`, and whether to draw the pointer.
    package static func screen(
        display: String, size: (width: Int, height: Int)? = nil, frameRate: Double? = nil,
        drawMouse: Bool = true
    ) -> DeviceSource {
        var options: [String: String] = ["draw_mouse": drawMouse ? "1" : "0"]
        if let size { options["video_size"] = "\(size.width)x\(size.height)" }
        if let frameRate { options["framerate"] = Self.rateString(frameRate) }
        return DeviceSource(kind: .x11grab, device: display, options: options, outputSize: size)
    }

    /// A microphone through ALSA (`kind` `.alsa`) or PulseAudio (`.pulse`) at `sampleRate` with
    /// `channels`; `server` picks a PulseAudio server other than the default.
    package static func microphone(
        kind: Kind, device: String, sampleRate: Int? = nil, channels: Int? = nil,
        server: String? = nil
    ) -> DeviceSource {
        var options: [String: String] = [:]
        if let sampleRate { options["sample_rate"] = String(sampleRate) }
        if let channels { options["channels"] = String(channels) }
        if let server, kind == .pulse { options["server"] = server }
        return DeviceSource(kind: kind, device: device, options: options)
    }

    /// Format options that stop libavformat from reading ahead to analyse a live input.
    static let noProbing = ["probesize": "32", "analyzeduration": "0", "fpsprobesize": "0"]

    private static func rateString(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }

    /// Opens the device and starts delivering to `handlers` on a capture thread, stamped on `clock`.
    package func start(clock: CaptureClock, handlers: CaptureHandlers) throws(CaptureError) {
        let runner = try slot.claim(sourceName: name, handlers: handlers, outputSize: outputSize)
        let kind = kind, device = device, name = name
        // Devices describe their streams in their header: probing would only buffer about a second
        // of stale frames (and delay start by as much). The caller's options win.
        let options = Self.noProbing.merging(options) { _, chosen in chosen }
        let output = outputSize.map { MediaFileDecoder.VideoOutput(width: $0.width, height: $0.height) }
        try runner.start { runner in
            Self.capture(
                kind: kind, device: device, options: options, output: output, name: name,
                clock: clock, runner: runner)
        }
    }

    /// Stops capturing and waits until nothing more will be delivered.
    package func stop() {
        slot.stop()
    }

    /// The capture loop, run on the runner's thread: open, report, read until stopped or failed.
    private static func capture(
        kind: Kind, device: String, options: [String: String],
        output: MediaFileDecoder.VideoOutput?, name: String,
        clock: CaptureClock, runner: CaptureRunner
    ) {
        let (opened, log) = FFmpegLogCapture.capturing { () -> Result<MediaFileDecoder, any Error> in
            Result {
                try MediaFileDecoder(
                    path: device, format: kind.rawValue, options: options,
                    decodeVideo: kind.mediaType == .video, decodeAudio: kind.mediaType == .audio,
                    videoOutput: output, interrupt: runner.interrupt)
            }
        }
        let decoder: MediaFileDecoder
        switch opened {
        case .success(let value): decoder = value
        case .failure(let error):
            runner.reportOpened(.openFailed(source: name, error: FFmpegError.wrapping(error), log: log))
            return
        }
        if (kind.mediaType == .video ? decoder.videoStream : decoder.audioStream) == nil {
            runner.reportOpened(.missingStream(source: name, mediaType: kind.mediaType))
            return
        }
        runner.reportOpened(nil)
        var videoTimes = DeviceTimestampMapper(), audioTimes = DeviceTimestampMapper()
        var audioTimeline = AudioTimeline()
        while runner.isRunning {
            do {
                guard let item = try decoder.next() else {
                    runner.end(nil)
                    return
                }
                switch item {
                case .video(var frame):
                    frame.pts = videoTimes.map(frame.pts, clock: clock)
                    runner.deliver(frame)
                case .audio(var buffer):
                    buffer.pts = audioTimeline.stamp(
                        deviceTime: audioTimes.map(buffer.pts, clock: clock),
                        frameCount: buffer.frameCount, sampleRate: buffer.sampleRate)
                    runner.deliver(buffer)
                }
            } catch {
                if runner.interrupt.isRaised { return }
                runner.end(CaptureError.readFailed(source: name, error: FFmpegError.wrapping(error)))
                return
            }
        }
    }
}
#endif
