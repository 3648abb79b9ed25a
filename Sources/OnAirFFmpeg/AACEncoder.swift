import CFFmpeg
import OnAirCore

/// Encodes `PCMBuffer`s to raw AAC-LC frames with libavcodec's native `aac` encoder.
///
/// Accepts s16/s32/f32, interleaved or planar, at any rate and chunk size: input is converted
/// (swresample) and regrouped into 1024-sample frames. Packet timestamps follow the first
/// buffer's `pts` and the sample count; the first packet starts `primingSamples` early (encoder
/// delay), so that decoded audio minus the priming lines up with the input.
/// Calls block: use one encoder from one dedicated thread or serial queue.
public final class AACEncoder {
    /// The settings the encoder was opened with.
    public let settings: AudioEncoderSettings
    /// The FFmpeg encoder in use.
    public let encoderName: String
    /// Samples of encoder delay at the start of the stream (AAC priming, usually 1024).
    public let primingSamples: Int
    /// The AudioSpecificConfig, also attached to the first packet.
    public let formatDescription: FormatDescription

    private let context: CodecContext
    private let fifo: AudioSampleFIFO
    private let frame: OwnedFrame
    private let packet: OwnedPacket
    private let frameSize: Int
    private let sampleFormat: AVSampleFormat
    private let layout: AVChannelLayout
    private var resampler: SampleResampler?
    private var nextPts: Int64?
    private var sentDescription = false
    private var flushed = false

    /// Validates `settings` and opens the encoder (`aac` unless another AAC encoder is named).
    public init(settings: AudioEncoderSettings, encoderName: String = "aac") throws(EncoderError) {
        do { try settings.validate() } catch { throw .invalidSettings(error) }
        guard let codec = avcodec_find_encoder_by_name(encoderName) else {
            throw .unavailable(encoder: encoderName, reason: "not in this FFmpeg build")
        }
        guard codec.pointee.id == AV_CODEC_ID_AAC else { throw .unavailable(encoder: encoderName, reason: "not an AAC encoder") }
        context = try CodecContext(codec: codec)
        let c = context.pointer
        sampleFormat = codec.pointee.sample_fmts?.pointee ?? AV_SAMPLE_FMT_FLTP
        layout = Self.layout(for: codec, channels: settings.channels)
        var chosenLayout = layout
        try checkEncoder(av_channel_layout_copy(&c.pointee.ch_layout, &chosenLayout), "av_channel_layout_copy")
        c.pointee.sample_fmt = sampleFormat
        c.pointee.sample_rate = Int32(settings.sampleRate)
        c.pointee.bit_rate = Int64(settings.bitRate)
        c.pointee.time_base = AVRational(num: 1, den: Int32(settings.sampleRate))
        c.pointee.profile = FF_PROFILE_AAC_LOW
        try context.open()
        self.settings = settings
        self.encoderName = encoderName
        primingSamples = Int(c.pointee.initial_padding)
        frameSize = c.pointee.frame_size > 0 ? Int(c.pointee.frame_size) : 1024
        let extradata = context.extradata
        formatDescription = .aac(audioSpecificConfig: extradata.isEmpty ? Self.audioSpecificConfig(settings) : extradata)
        fifo = AudioSampleFIFO(format: sampleFormat, channels: settings.channels)
        frame = try OwnedFrame()
        packet = try OwnedPacket()
        frame.pointer.pointee.format = sampleFormat.rawValue
        frame.pointer.pointee.nb_samples = Int32(frameSize)
        frame.pointer.pointee.sample_rate = Int32(settings.sampleRate)
        try checkEncoder(av_channel_layout_copy(&frame.pointer.pointee.ch_layout, &chosenLayout), "av_channel_layout_copy")
        try checkEncoder(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer(aac)")
    }

    /// Adds `buffer` and returns the AAC packets that became ready.
    public func encode(_ buffer: PCMBuffer) throws(EncoderError) -> [EncodedPacket] {
        guard !flushed else { throw .finished }
        if let problem = buffer.layoutProblem() { throw .invalidInput(field: "buffer", problem: problem) }
        if nextPts == nil { nextPts = buffer.pts.converted(to: Int32(settings.sampleRate)).value }
        let input = (buffer.sampleFormat, buffer.isPlanar, buffer.sampleRate, buffer.channels)
        if resampler == nil || resampler!.input != input {
            try resampler?.convert(nil, into: fifo)
            resampler = try SampleResampler(input: input, outputFormat: sampleFormat, outputLayout: layout,
                                            outputRate: settings.sampleRate)
        }
        try resampler!.convert(buffer, into: fifo)
        var packets: [EncodedPacket] = []
        while fifo.count >= frameSize { try sendFrame(samples: frameSize, into: &packets) }
        return packets
    }

    /// Encodes the samples still buffered (a short last frame) and drains the encoder.
    public func flush() throws(EncoderError) -> [EncodedPacket] {
        guard !flushed else { return [] }
        flushed = true
        try resampler?.convert(nil, into: fifo)
        var packets: [EncodedPacket] = []
        while fifo.count > 0 { try sendFrame(samples: min(frameSize, fifo.count), into: &packets) }
        try context.encode(nil, into: packet) { (p) throws(EncoderError) in packets.append(makePacket(p)) }
        return packets
    }

    private func sendFrame(samples: Int, into packets: inout [EncodedPacket]) throws(EncoderError) {
        try checkEncoder(av_frame_make_writable(frame.pointer), "av_frame_make_writable(aac)")
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
        return EncodedPacket(mediaType: .audio, codec: .aac, payload: payload,
                             pts: MediaTime(value: pts, timescale: scale), dts: MediaTime(value: pts, timescale: scale),
                             duration: MediaTime(value: duration, timescale: scale), isKeyframe: true,
                             formatDescription: sentDescription ? nil : formatDescription, form: .raw)
    }

    /// The encoder's own layout with `channels` channels, or FFmpeg's default for that count.
    private static func layout(for codec: UnsafePointer<AVCodec>, channels: Int) -> AVChannelLayout {
        if var layouts = codec.pointee.ch_layouts {
            while layouts.pointee.nb_channels > 0 {
                if layouts.pointee.nb_channels == Int32(channels) { return layouts.pointee }
                layouts += 1
            }
        }
        var layout = AVChannelLayout()
        onair_default_channel_layout(&layout, Int32(channels))
        return layout
    }

    /// A two-byte AAC-LC AudioSpecificConfig (object type 2, frequency index, channel configuration).
    static func audioSpecificConfig(_ settings: AudioEncoderSettings) -> [UInt8] {
        let rates = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000]
        let index = UInt8(rates.firstIndex(of: settings.sampleRate) ?? 15)
        let configuration = UInt8(settings.channels == 8 ? 7 : settings.channels)
        return [(2 << 3) | (index >> 1), ((index & 1) << 7) | (configuration << 3)]
    }
}
