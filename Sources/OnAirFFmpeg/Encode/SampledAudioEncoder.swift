#if os(Linux)
import CFFmpeg
import OnAirCore

/// The codec-independent half of OnAir's audio encoders (`AACEncoder`, `OpusEncoder`): converts any PCM
/// (swresample) into the encoder's format, regroups it into the encoder's frame size, keeps the sample
/// count on the input's timestamps (`AudioTimingCorrection`) and turns libavcodec's packets into
/// `EncodedPacket`s without a copy. Calls block: use one from one dedicated thread or serial queue.
final class SampledAudioEncoder {
    /// What differs between codecs: which one, how its context is set up, its fallback description.
    struct Codec {
        var id: AVCodecID
        var mediaCodec: MediaCodec
        var displayName: String
        var defaultFrameSize: Int
        /// Sets codec-specific fields of the context before it opens.
        var configure: (UnsafeMutablePointer<AVCodecContext>) throws(EncoderError) -> Void
        /// The format description from the opened encoder's extradata (possibly empty).
        var describe: ([UInt8]) -> FormatDescription
        /// Preferred input sample formats, best first; the encoder's own first choice otherwise.
        var preferredSampleFormats: [AVSampleFormat] = []
    }
    /// The settings the encoder was opened with.
    let settings: AudioEncoderSettings
    /// The FFmpeg encoder in use.
    let encoderName: String
    /// Samples of encoder delay at the start of the stream (AAC priming, usually 1024; Opus 312).
    let primingSamples: Int
    /// What a decoder needs first (AAC's AudioSpecificConfig, Opus's OpusHead), also attached to the first packet.
    let formatDescription: FormatDescription

    private let context: CodecContext
    private let fifo: AudioSampleFIFO
    private let frame: OwnedFrame
    private let packet: OwnedPacket
    private let frameSize: Int
    private let sampleFormat: AVSampleFormat
    private let layout: AVChannelLayout
    private var resampler: SampleResampler?
    private var nextPts: Int64?
    /// Added to input timestamps after a clock jump too big to fill (see `AudioTimingCorrection.maximumGap`).
    private var inputOffset: Int64 = 0
    private var stretching = false
    /// How the sample count is kept on the input's timestamps.
    let timingCorrection: AudioTimingCorrection
    /// Samples of silence inserted for holes, samples cut for overlaps, and clock jumps, so far.
    private(set) var insertedSilenceSamples: Int64 = 0, droppedSamples: Int64 = 0, clockJumps = 0
    private var sentDescription = false
    private var flushed = false

    private let codecDescription: Codec
    /// Opens `encoderName` (which must be an encoder of `codec.id`) with already validated `settings`.
    init(
        codec description: Codec, settings: AudioEncoderSettings, encoderName: String,
        timingCorrection: AudioTimingCorrection
    ) throws(EncoderError) {
        self.timingCorrection = timingCorrection
        codecDescription = description
        guard let codec = avcodec_find_encoder_by_name(encoderName) else {
            throw .unavailable(encoder: encoderName, reason: "not in this FFmpeg build")
        }
        guard codec.pointee.id == description.id else {
            throw .unavailable(encoder: encoderName, reason: "not an \(description.displayName) encoder")
        }
        context = try CodecContext(codec: codec)
        let c = context.pointer
        sampleFormat = Self.sampleFormat(of: codec, preferring: description.preferredSampleFormats)
        layout = Self.layout(for: codec, channels: settings.channels)
        var chosenLayout = layout
        try checkEncoder(av_channel_layout_copy(&c.pointee.ch_layout, &chosenLayout), "av_channel_layout_copy")
        c.pointee.sample_fmt = sampleFormat
        c.pointee.sample_rate = Int32(settings.sampleRate)
        c.pointee.bit_rate = Int64(settings.bitRate)
        c.pointee.time_base = AVRational(num: 1, den: Int32(settings.sampleRate))
        try description.configure(c)
        try context.open()
        self.settings = settings
        self.encoderName = encoderName
        primingSamples = Int(c.pointee.initial_padding)
        frameSize = c.pointee.frame_size > 0 ? Int(c.pointee.frame_size) : description.defaultFrameSize
        formatDescription = description.describe(context.extradata)
        fifo = AudioSampleFIFO(format: sampleFormat, channels: settings.channels)
        frame = try OwnedFrame()
        packet = try OwnedPacket()
        frame.pointer.pointee.format = sampleFormat.rawValue
        frame.pointer.pointee.nb_samples = Int32(frameSize)
        frame.pointer.pointee.sample_rate = Int32(settings.sampleRate)
        try checkEncoder(av_channel_layout_copy(&frame.pointer.pointee.ch_layout, &chosenLayout), "av_channel_layout_copy")
        try checkEncoder(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer(\(encoderName))")
    }

    /// Adds `buffer` and returns the packets that became ready.
    func encode(_ buffer: PCMBuffer) throws(EncoderError) -> [EncodedPacket] {
        guard !flushed else { throw .finished }
        if let problem = buffer.layoutProblem() { throw .invalidInput(field: "buffer", problem: problem) }
        let rate = settings.sampleRate
        if nextPts == nil { nextPts = buffer.pts.converted(to: Int32(rate)).value }
        let input = (buffer.sampleFormat, buffer.isPlanar, buffer.sampleRate, buffer.channels)
        if resampler == nil || resampler!.input != input {
            try resampler?.convert(nil, into: fifo)
            resampler = try SampleResampler(
                input: input, outputFormat: sampleFormat, outputLayout: layout,
                outputRate: rate)
            stretching = false
        }
        let converter = resampler!
        // Where the count says this buffer starts, and where its timestamp says it does.
        let counted = nextPts! + Int64(fifo.count) + converter.delay(outputRate: rate)
        let stamped = buffer.pts.converted(to: Int32(rate)).value + inputOffset
        var skip = 0
        switch timingCorrection.action(error: stamped - counted, sampleRate: rate, stretching: stretching) {
        case .none:
            break
        case .insertSilence(let samples):
            try insertSilence(outputSamples: samples, like: buffer, through: converter)
        case .drop(let samples):
            skip = Int(min(Int64(buffer.frameCount), samples * Int64(buffer.sampleRate) / Int64(rate)))
            droppedSamples += samples
        case .stretch(let delta, let distance):
            try converter.compensate(delta: delta, distance: distance)
            stretching = true
        case .restart:
            inputOffset += counted - stamped
            clockJumps += 1
        }
        try converter.convert(buffer, skipping: skip, into: fifo)
        var packets: [EncodedPacket] = []
        while fifo.count >= frameSize { try sendFrame(samples: frameSize, into: &packets) }
        return packets
    }

    /// Feeds `outputSamples` of silence (in the input's format, at most a second at a time) through the converter.
    private func insertSilence(
        outputSamples: Int64, like buffer: PCMBuffer,
        through converter: SampleResampler
    ) throws(EncoderError) {
        insertedSilenceSamples += outputSamples
        var remaining = Int(outputSamples * Int64(buffer.sampleRate) / Int64(settings.sampleRate))
        let bytesPerSample = buffer.sampleFormat.bytesPerSample * (buffer.isPlanar ? 1 : buffer.channels)
        while remaining > 0 {
            let count = min(remaining, buffer.sampleRate)
            let plane = [UInt8](repeating: 0, count: count * bytesPerSample)
            let silence = PCMBuffer(
                sampleFormat: buffer.sampleFormat, isPlanar: buffer.isPlanar,
                sampleRate: buffer.sampleRate, channels: buffer.channels, frameCount: count,
                planes: Array(repeating: plane, count: buffer.isPlanar ? buffer.channels : 1),
                pts: buffer.pts)
            try converter.convert(silence, into: fifo)
            remaining -= count
        }
    }

    /// Encodes the samples still buffered (a short last frame) and drains the encoder.
    func flush() throws(EncoderError) -> [EncodedPacket] {
        guard !flushed else { return [] }
        flushed = true
        try resampler?.convert(nil, into: fifo)
        var packets: [EncodedPacket] = []
        while fifo.count > 0 { try sendFrame(samples: min(frameSize, fifo.count), into: &packets) }
        try context.encode(nil, into: packet) { (p) throws(EncoderError) in packets.append(makePacket(p)) }
        return packets
    }

    private func sendFrame(samples: Int, into packets: inout [EncodedPacket]) throws(EncoderError) {
        try checkEncoder(av_frame_make_writable(frame.pointer), "av_frame_make_writable(\(encoderName))")
        frame.pointer.pointee.nb_samples = Int32(samples)
        fifo.read(into: frame, samples: samples)
        frame.pointer.pointee.pts = nextPts ?? 0
        nextPts = (nextPts ?? 0) + Int64(samples)
        try context.encode(frame.pointer, into: packet) { (p) throws(EncoderError) in packets.append(makePacket(p)) }
    }

    private func makePacket(_ p: UnsafeMutablePointer<AVPacket>) -> EncodedPacket {
        let scale = Int32(settings.sampleRate)
        let pts = p.pointee.pts == onair_nopts_value() ? 0 : p.pointee.pts
        let duration = p.pointee.duration > 0 ? p.pointee.duration : Int64(frameSize)
        // The encoder's own payload buffer, without a copy.
        let payload = AVPacketStorage.payload(takingFrom: p) ?? MediaBuffer(bytes: OwnedPacket.bytes(of: p))
        defer { sentDescription = true }
        return EncodedPacket(
            mediaType: .audio, codec: codecDescription.mediaCodec, payload: payload,
            pts: MediaTime(value: pts, timescale: scale), dts: MediaTime(value: pts, timescale: scale),
            duration: MediaTime(value: duration, timescale: scale), isKeyframe: true,
            formatDescription: sentDescription ? nil : formatDescription, form: .raw)
    }

    /// The encoder's own layout with `channels` channels, or FFmpeg's default for that count.
    private static func layout(for codec: UnsafePointer<AVCodec>, channels: Int) -> AVChannelLayout {
        if var layouts = onair_codec_channel_layouts(codec) {
            while layouts.pointee.nb_channels > 0 {
                if layouts.pointee.nb_channels == Int32(channels) { return layouts.pointee }
                layouts += 1
            }
        }
        var layout = AVChannelLayout()
        onair_default_channel_layout(&layout, Int32(channels))
        return layout
    }

    /// The first of `preferred` that `codec` takes, else the encoder's own first choice (planar float if none).
    private static func sampleFormat(of codec: UnsafePointer<AVCodec>, preferring preferred: [AVSampleFormat]) -> AVSampleFormat {
        var supported: [AVSampleFormat] = []
        if var formats = onair_codec_sample_formats(codec) {
            while formats.pointee != AV_SAMPLE_FMT_NONE {
                supported.append(formats.pointee)
                formats += 1
            }
        }
        return preferred.first(where: supported.contains) ?? supported.first ?? AV_SAMPLE_FMT_FLTP
    }
}
#endif
