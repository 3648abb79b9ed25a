#if os(Linux)
import CFFmpeg
import OnAirCore

/// Owns one `SwrContext` converting PCM of one format, rate and channel count to the encoder's; freed in `deinit`.
final class SampleResampler {
    private var context: OpaquePointer?
    private let converted: OwnedFrame
    private var convertedCapacity = 0
    private let outputFormat: AVSampleFormat
    private var outputLayout: AVChannelLayout
    /// The input this resampler was made for.
    let input: (format: PCMSampleFormat, planar: Bool, rate: Int, channels: Int)

    init(
        input: (format: PCMSampleFormat, planar: Bool, rate: Int, channels: Int),
        outputFormat: AVSampleFormat, outputLayout: AVChannelLayout, outputRate: Int
    ) throws(EncoderError) {
        self.input = input
        self.outputFormat = outputFormat
        self.outputLayout = outputLayout
        converted = try OwnedFrame()
        var inLayout = AVChannelLayout()
        onair_default_channel_layout(&inLayout, Int32(input.channels))
        defer { av_channel_layout_uninit(&inLayout) }
        var outLayout = outputLayout
        try checkEncoder(
            swr_alloc_set_opts2(
                &context, &outLayout, outputFormat, Int32(outputRate),
                &inLayout, Self.avFormat(input.format, planar: input.planar),
                Int32(input.rate), 0, nil), "swr_alloc_set_opts2")
        try checkEncoder(swr_init(context), "swr_init")
    }

    deinit { swr_free(&context) }

    /// The FFmpeg sample format for a PCM format and layout.
    static func avFormat(_ format: PCMSampleFormat, planar: Bool) -> AVSampleFormat {
        switch (format, planar) {
        case (.s16, false): return AV_SAMPLE_FMT_S16
        case (.s16, true): return AV_SAMPLE_FMT_S16P
        case (.s32, false): return AV_SAMPLE_FMT_S32
        case (.s32, true): return AV_SAMPLE_FMT_S32P
        case (.f32, false): return AV_SAMPLE_FMT_FLT
        case (.f32, true): return AV_SAMPLE_FMT_FLTP
        }
    }

    /// Input held inside the resampler (filter history, buffered samples), in samples at `outputRate`.
    func delay(outputRate: Int) -> Int64 {
        swr_get_delay(context, Int64(outputRate))
    }

    /// Stretches (positive `delta`) or squeezes (negative) the next `distance` output samples by
    /// `delta` samples in all, by resampling: gentle correction of a drifting clock.
    func compensate(delta: Int, distance: Int) throws(EncoderError) {
        try checkEncoder(swr_set_compensation(context, Int32(delta), Int32(distance)), "swr_set_compensation")
    }

    /// Converts `buffer` (nil drains what the resampler holds) and appends the result to `fifo`;
    /// the first `skipping` samples of `buffer` are left out.
    func convert(_ buffer: PCMBuffer?, skipping: Int = 0, into fifo: AudioSampleFIFO) throws(EncoderError) {
        let skipped = min(max(skipping, 0), buffer?.frameCount ?? 0)
        let inCount = (buffer?.frameCount ?? 0) - skipped
        let capacity = Int(swr_get_out_samples(context, Int32(inCount))) + 16
        guard capacity > 16 || inCount > 0 || swr_get_delay(context, 1) > 0 else { return }
        if capacity > convertedCapacity {
            // Grown only when a longer buffer arrives: steady state reuses the same output frame.
            av_frame_unref(converted.pointer)
            converted.pointer.pointee.format = outputFormat.rawValue
            converted.pointer.pointee.nb_samples = Int32(capacity)
            try checkEncoder(av_channel_layout_copy(&converted.pointer.pointee.ch_layout, &outputLayout), "av_channel_layout_copy")
            try checkEncoder(av_frame_get_buffer(converted.pointer, 0), "av_frame_get_buffer(audio)")
            convertedCapacity = capacity
        }
        let output = converted.pointer.pointee.extended_data
        let produced: Int32
        if let buffer {
            let bytesPerFrame = buffer.sampleFormat.bytesPerSample * (buffer.isPlanar ? 1 : buffer.channels)
            produced = withBasePointers(buffer.planeBuffers[...]) { sources -> Int32 in
                var pointers = sources.map { $0.map { $0 + skipped * bytesPerFrame } }
                return swr_convert(context, output, Int32(capacity), &pointers, Int32(inCount))
            }
        } else {
            produced = swr_convert(context, output, Int32(capacity), nil, 0)
        }
        try checkEncoder(produced, "swr_convert")
        if produced > 0 { fifo.write(converted, samples: Int(produced)) }
    }
}
#endif
