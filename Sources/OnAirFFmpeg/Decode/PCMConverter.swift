#if os(Linux)
import CFFmpeg
import OnAirCore

/// Converts decoded PCM of any format, rate and channel count to interleaved 32-bit float at
/// an output device's rate and channel count (libswresample), and can stretch or shorten the
/// audio slightly to let a live player catch up. Use it from one thread at a time.
package final class PCMConverter {
    private var context: OpaquePointer?
    private var input: (format: PCMSampleFormat, planar: Bool, rate: Int, channels: Int)?
    /// Samples per second of the output.
    package let outputRate: Int
    /// Channels of the output.
    package let outputChannels: Int

    /// A converter to `outputRate` Hz, `outputChannels` channels, interleaved f32.
    package init(outputRate: Int, outputChannels: Int) {
        self.outputRate = outputRate
        self.outputChannels = outputChannels
    }

    deinit { swr_free(&context) }

    private func prepare(for buffer: PCMBuffer) throws(FFmpegError) {
        let wanted = (buffer.sampleFormat, buffer.isPlanar, buffer.sampleRate, buffer.channels)
        if let input, context != nil, input == wanted { return }
        swr_free(&context)
        var inLayout = AVChannelLayout(), outLayout = AVChannelLayout()
        onair_default_channel_layout(&inLayout, Int32(buffer.channels))
        onair_default_channel_layout(&outLayout, Int32(outputChannels))
        defer {
            av_channel_layout_uninit(&inLayout)
            av_channel_layout_uninit(&outLayout)
        }
        _ = try check(
            swr_alloc_set_opts2(
                &context, &outLayout, AV_SAMPLE_FMT_FLT, Int32(outputRate), &inLayout,
                SampleResampler.avFormat(buffer.sampleFormat, planar: buffer.isPlanar),
                Int32(buffer.sampleRate), 0, nil), "set up audio conversion")
        _ = try check(swr_init(context), "start audio conversion")
        input = wanted
    }

    /// The buffer's samples at the output rate and layout, interleaved (what the resampler can
    /// give out now; it may hold a few samples back for the next call).
    package func convert(_ buffer: PCMBuffer) throws(FFmpegError) -> [Float] {
        if let problem = buffer.layoutProblem() {
            throw FFmpegError(code: onair_averror_invaliddata(), operation: "convert audio (\(problem))")
        }
        try prepare(for: buffer)
        let capacity = Int(swr_get_out_samples(context, Int32(buffer.frameCount))) + 32
        var output = [Float](repeating: 0, count: capacity * outputChannels)
        let produced = output.withUnsafeMutableBytes { target -> Int32 in
            var out: UnsafeMutablePointer<UInt8>? = target.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return withBasePointers(buffer.planeBuffers[...]) { sources -> Int32 in
                var pointers = sources
                return swr_convert(context, &out, Int32(capacity), &pointers, Int32(buffer.frameCount))
            }
        }
        _ = try check(produced, "convert audio")
        output.removeLast(output.count - Int(produced) * outputChannels)
        return output
    }

    /// Makes the next `distance` output samples `delta` samples longer (negative: shorter) by
    /// resampling them a little faster or slower; 0 ends any adjustment. No-op before the first buffer.
    package func compensate(delta: Int, distance: Int) throws(FFmpegError) {
        guard context != nil, distance > 0 else { return }
        _ = try check(swr_set_compensation(context, Int32(delta), Int32(distance)), "adjust the audio speed")
    }
}
#endif
