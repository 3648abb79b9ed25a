#if canImport(OnAirFFmpeg)
import Foundation
import OnAirCore
import OnAirFFmpeg
import OnAirLive

/// Decodes a file and re-encodes it to H.264 and AAC as fast as the encoders go, writing every
/// packet to each sink (one encode, many outputs).
///
/// The work runs as a pipeline of parallel stages, as in `LiveSession`: decoding (and scaling, and
/// frame-rate conversion) on the calling thread, H.264 encoding on its own thread, AAC encoding
/// (with resampling) on another, with small bounded queues between them that make a fast stage
/// wait for a slow one. libavcodec's decoder and libx264 size their own worker threads to the
/// machine's cores. Frames pass between stages without being copied (see `VideoFrame`); sinks are
/// written from the encoder threads, one at a time.
/// Unchecked Sendable: the decoder and encoders (C codec contexts) are each used on one stage thread; shared vars under `lock`
public final class FileTranscoder: @unchecked Sendable {
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
        /// The same for keyframes alone (a keyframe costs an encoder several times a predicted frame).
        public var keyFrameEncodeLatency = LatencyStatistics()

        /// Creates an empty progress record.
        public init() {}
    }

    /// The settings after filling in what follows the input (size, rate, channels).
    public private(set) var videoSettings: VideoEncoderSettings?
    /// The audio settings, likewise.
    public private(set) var audioSettings: AudioEncoderSettings?
    /// The video encoder's choice and why hardware candidates were passed over.
    package private(set) var encoderSelection: EncoderSelection?
    /// The video encoder's choice and why hardware candidates were passed over, as one line
    /// (`libx264 (skipped h264_vaapi: …)`), or nil before the video encoder opened.
    public var encoderChoice: String? { encoderSelection.map { "\($0)" } }

    private let decoder: MediaFileDecoder
    private(set) var sinks: [any PacketSink] = []
    /// Sinks that failed, by index; they get nothing more.
    private(set) var failures: [Int: OutputFailure] = [:]
    private var outputFailed: (OutputFailure) -> Void = { _ in }
    private(set) var videoEncoder: H264Encoder?
    private var audioEncoder: AACEncoder?
    private var rateConverter: FrameRateConverter?
    /// Forced keyframe times not reached yet, in seconds.
    var keyFrameTimes: [Double]
    /// What was done so far (under `lock`).
    var progress = Progress()
    private var lastVideoEnd = 0.0
    /// Submission times of frames whose packets have not come out yet, by pts in microseconds
    /// (video encoder thread only).
    var submitted: [Int64: Double] = [:]
    /// Guards `progress`, `failure` and the sinks while the encoder threads run.
    let lock = NSLock()
    /// The first error of decoding or encoding (under `lock`): the run stops.
    var failure: (any Error)?
    /// Frames waiting for the H.264 encoder, each with whether it must be a keyframe. One is
    /// enough to keep both stages busy (the decoder works on the next picture meanwhile); each
    /// more would only hold another decoded picture in memory.
    let videoQueue = BoundedQueue<(VideoFrame, Bool)>(capacity: 1)
    /// Sample runs waiting for the AAC encoder.
    let audioQueue = BoundedQueue<PCMBuffer>(capacity: 16)

    /// Opens `input` and the encoders. `video`/`audio` nil leaves that stream out; settings the
    /// caller did not fix (`followInput`) are taken from the input.
    public init(
        input: String, video: VideoEncoderSettings?, audio: AudioEncoderSettings?,
        followInput: FollowInput = FollowInput(), forceKeyFrameTimes: [Double] = []
    ) throws {
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
        /// Whether the picture size, the frame rate, the audio sample rate and the channel count follow the input.
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
    /// about twice a second and at the end (on the calling thread). A sink that fails is reported
    /// to `outputFailed` at once and left behind while the others carry on; the run then ends with
    /// `OutputsFailedError` naming it (or with the error itself once every sink has failed).
    package func run(
        sinks: [any PacketSink], report: (Progress) -> Void = { _ in },
        outputFailed: @escaping (OutputFailure) -> Void = { _ in }
    ) throws {
        self.sinks = sinks
        self.outputFailed = outputFailed
        let started = Date()
        var lastReport = started
        let encoders = DispatchGroup()
        if videoEncoder != nil {
            encoders.startThread(named: "onair.transcode.video", stackSize: 4 << 20) { [self] in runVideo(videoEncoder!) }
        }
        if audioEncoder != nil {
            encoders.startThread(named: "onair.transcode.audio", stackSize: 4 << 20) { [self] in runAudio(audioEncoder!) }
        }
        do {
            while let output = try decoder.next() {
                if failed { break }
                switch output {
                case .video(let frame):
                    lastVideoEnd = frame.pts.seconds + 1 / (videoSettings?.expectedFrameRate ?? 30)
                    if var converter = rateConverter {
                        let frames = converter.push(frame)
                        rateConverter = converter
                        for converted in frames { submit(converted) }
                    } else {
                        submit(frame)
                    }
                case .audio(let buffer):
                    guard audioEncoder != nil else { continue }
                    audioQueue.push(buffer, overflow: .wait)
                }
                if Date().timeIntervalSince(lastReport) >= 0.5 {
                    lastReport = Date()
                    report(snapshot(wall: lastReport.timeIntervalSince(started)))
                }
            }
            if var converter = rateConverter {
                for frame in converter.finish(end: lastVideoEnd) { submit(frame) }
                rateConverter = converter
            }
        } catch {
            record(error)
        }
        videoQueue.close()
        audioQueue.close()
        encoders.wait()
        if let failure = lock.withLock({ failure }) { throw failure }
        for (index, sink) in sinks.enumerated() where failures[index] == nil {
            do { try sink.finish() } catch { fail(index, error) }
        }
        report(snapshot(wall: Date().timeIntervalSince(started)))
        if !failures.isEmpty { throw OutputsFailedError(failures: failures.sorted { $0.key < $1.key }.map(\.value)) }
    }

    /// Records that sink `index` failed and tells the caller at once (under `lock` while encoding).
    func fail(_ index: Int, _ error: any Error) {
        let failure = OutputFailure(destination: sinks[index].destination, error: error)
        failures[index] = failure
        outputFailed(failure)
    }
}
#endif
