#if canImport(OnAirFFmpeg)
import Foundation
import OnAirCore
import OnAirFFmpeg

/// Decodes a file and re-encodes it to H.264 and AAC as fast as the encoders go, writing every
/// packet to each sink (one encode, many outputs).
public final class FileTranscoder {
    /// What the transcoder has done so far.
    public struct Progress: Sendable {
        /// Media time reached, in seconds.
        public var mediaSeconds: Double = 0
        /// Video frames and audio frames encoded.
        public var videoFrames = 0, audioFrames = 0
        /// Compressed bytes per stream.
        public var videoBytes = 0, audioBytes = 0
        /// Wall-clock seconds since the start.
        public var wallSeconds: Double = 0
        /// Media seconds per wall second.
        public var speed: Double { wallSeconds > 0 ? mediaSeconds / wallSeconds : 0 }
        /// Per video frame, seconds from handing the frame to the encoder until its packet came out.
        public var encodeLatency = LatencyStatistics()

        /// Creates an empty progress record.
        public init() {}
    }

    /// The settings after filling in what follows the input (size, rate, channels).
    public private(set) var videoSettings: VideoEncoderSettings?
    public private(set) var audioSettings: AudioEncoderSettings?
    /// The H.264 encoder's choice and why hardware candidates were passed over.
    public private(set) var encoderSelection: EncoderSelection?

    private let decoder: MediaFileDecoder
    private var sinks: [any PacketSink] = []
    /// Sinks that failed, by index; they get nothing more.
    private var failures: [Int: OutputFailure] = [:]
    private var outputFailed: (OutputFailure) -> Void = { _ in }
    private var videoEncoder: H264Encoder?
    private var audioEncoder: AACEncoder?
    private var rateConverter: FrameRateConverter?
    private var keyFrameTimes: [Double]
    private var progress = Progress()
    private var lastVideoEnd = 0.0
    /// Submission times of frames whose packets have not come out yet, by pts in microseconds.
    private var submitted: [Int64: Double] = [:]

    /// Opens `input` and the encoders. `video`/`audio` nil leaves that stream out; settings the
    /// caller did not fix (`followInput`) are taken from the input.
    public init(input: String, video: VideoEncoderSettings?, audio: AudioEncoderSettings?,
                followInput: FollowInput = FollowInput(), forceKeyFrameTimes: [Double] = []) throws {
        // Every setting is checked, even for a stream the input turns out not to have (the level
        // is checked against the size and rate once they are known, so only where the stream exists).
        if var video {
            video.profileLevel.level = nil
            try video.validate()
        }
        try audio?.validate()
        let probe = try MediaFileReader(path: input)
        let videoStream = probe.streams.first { $0.mediaType == .video }
        let audioStream = probe.streams.first { $0.mediaType == .audio }
        var videoSettings = video
        if var settings = videoSettings, let stream = videoStream {
            if followInput.size {
                settings.width = stream.width + stream.width % 2
                settings.height = stream.height + stream.height % 2
            }
            if followInput.frameRate, let rate = stream.averageFrameRate, rate > 0, rate <= 480 {
                settings.expectedFrameRate = rate
            }
            try settings.validate()
            videoSettings = settings
        } else {
            videoSettings = nil
        }
        var audioSettings = audio
        if var settings = audioSettings, let stream = audioStream {
            if followInput.sampleRate, AudioEncoderSettings.sampleRates.contains(stream.sampleRate) {
                settings.sampleRate = stream.sampleRate
            }
            if followInput.channels, AudioEncoderSettings.channelCounts.contains(stream.channels) {
                settings.channels = stream.channels
            }
            try settings.validate()
            audioSettings = settings
        } else {
            audioSettings = nil
        }
        guard videoSettings != nil || audioSettings != nil else {
            throw TranscodeError.nothingToEncode(input)
        }
        decoder = try MediaFileDecoder(
            path: input, decodeVideo: videoSettings != nil, decodeAudio: audioSettings != nil,
            videoOutput: videoSettings.map { MediaFileDecoder.VideoOutput(width: $0.width, height: $0.height) })
        if let videoSettings {
            let encoder = try H264Encoder(settings: videoSettings)
            videoEncoder = encoder
            encoderSelection = encoder.selection
            if !followInput.frameRate { rateConverter = FrameRateConverter(rate: videoSettings.expectedFrameRate) }
        }
        if let audioSettings { audioEncoder = try AACEncoder(settings: audioSettings) }
        self.videoSettings = videoSettings
        self.audioSettings = audioSettings
        self.keyFrameTimes = forceKeyFrameTimes
    }

    /// Which settings follow the input instead of the caller's values.
    public struct FollowInput: Sendable {
        public var size = true, frameRate = true, sampleRate = true, channels = true
        /// Creates the default: everything follows the input.
        public init(size: Bool = true, frameRate: Bool = true, sampleRate: Bool = true, channels: Bool = true) {
            self.size = size
            self.frameRate = frameRate
            self.sampleRate = sampleRate
            self.channels = channels
        }
    }

    /// Runs to the end of the input, writing to every sink and finishing them; `report` is called
    /// about twice a second and at the end. A sink that fails is reported to `outputFailed` at once
    /// and left behind while the others carry on; the run then ends with `OutputsFailedError`
    /// naming it (or with the error itself once every sink has failed).
    public func run(sinks: [any PacketSink], report: (Progress) -> Void = { _ in },
                    outputFailed: @escaping (OutputFailure) -> Void = { _ in }) throws {
        self.sinks = sinks
        self.outputFailed = outputFailed
        let started = Date()
        var lastReport = started
        while let output = try decoder.next() {
            switch output {
            case .video(let frame):
                lastVideoEnd = frame.pts.seconds + 1 / (videoSettings?.expectedFrameRate ?? 30)
                if var converter = rateConverter {
                    let frames = converter.push(frame)
                    rateConverter = converter
                    for converted in frames { try encode(converted) }
                } else {
                    try encode(frame)
                }
            case .audio(let buffer):
                guard let audioEncoder else { continue }
                try deliver(try audioEncoder.encode(buffer))
                progress.mediaSeconds = max(progress.mediaSeconds, buffer.pts.seconds)
            }
            if Date().timeIntervalSince(lastReport) >= 0.5 {
                lastReport = Date()
                progress.wallSeconds = lastReport.timeIntervalSince(started)
                report(progress)
            }
        }
        if var converter = rateConverter {
            for frame in converter.finish(end: lastVideoEnd) { try encode(frame) }
            rateConverter = converter
        }
        if let videoEncoder { try deliver(try videoEncoder.flush()) }
        if let audioEncoder { try deliver(try audioEncoder.flush()) }
        for (index, sink) in sinks.enumerated() where failures[index] == nil {
            do { try sink.finish() } catch { fail(index, error) }
        }
        progress.wallSeconds = Date().timeIntervalSince(started)
        report(progress)
        if !failures.isEmpty { throw OutputsFailedError(failures: failures.sorted { $0.key < $1.key }.map(\.value)) }
    }

    /// Records that sink `index` failed and tells the caller at once.
    private func fail(_ index: Int, _ error: any Error) {
        let failure = OutputFailure(destination: sinks[index].destination, error: error)
        failures[index] = failure
        outputFailed(failure)
    }

    private func encode(_ frame: VideoFrame) throws {
        guard let videoEncoder else { return }
        var force = false
        while let next = keyFrameTimes.first, frame.pts.seconds >= next - 1e-6 {
            keyFrameTimes.removeFirst()
            force = true
        }
        submitted[frame.pts.converted(to: 1_000_000).value] = ProcessInfo.processInfo.systemUptime
        try deliver(try videoEncoder.encode(frame, forceKeyFrame: force))
        progress.mediaSeconds = max(progress.mediaSeconds, frame.pts.seconds)
    }

    private func deliver(_ packets: [EncodedPacket]) throws {
        for packet in packets {
            if packet.mediaType == .video {
                if let start = submitted.removeValue(forKey: packet.pts.converted(to: 1_000_000).value) {
                    progress.encodeLatency.add(ProcessInfo.processInfo.systemUptime - start)
                }
                progress.videoFrames += 1
                progress.videoBytes += packet.data.count
            } else {
                progress.audioFrames += 1
                progress.audioBytes += packet.data.count
            }
            for (index, sink) in sinks.enumerated() where failures[index] == nil {
                do { try sink.write(packet) } catch {
                    fail(index, error)
                    if failures.count == sinks.count { throw error }
                }
            }
        }
    }
}

/// Why a transcode could not start.
public enum TranscodeError: OnAirError, Equatable {
    /// The input has none of the streams asked for.
    case nothingToEncode(String)

    public var description: String {
        switch self {
        case .nothingToEncode(let input): return "\(input): no video or audio stream to encode"
        }
    }
}
#endif
