#if os(Linux)
import CFFmpeg
import Testing

/// The shim's choices between FFmpeg versions (CFFmpeg/shim.h), checked on the version installed:
/// libavcodec 61.13+ answers through avcodec_get_supported_config, older ones through the
/// AVCodec fields; libavformat 61+ declares the avio write callback's buffer `const`.
@Suite struct FFmpegVersionBranchTests {
    /// The entries of a list ended by `sentinel`.
    static func entries<T: Equatable>(_ list: UnsafePointer<T>?, until sentinel: T) -> [T] {
        guard var pointer = list else { return [] }
        var found: [T] = []
        while pointer.pointee != sentinel, found.count < 256 {
            found.append(pointer.pointee)
            pointer += 1
        }
        return found
    }

    @Test func theEncodersSupportedFormatsAreReadOnThisVersion() throws {
        let x264 = try #require(avcodec_find_encoder_by_name("libx264"))
        #expect(Self.entries(onair_codec_pixel_formats(x264), until: AV_PIX_FMT_NONE).contains(AV_PIX_FMT_YUV420P))
        let aac = try #require(avcodec_find_encoder_by_name("aac"))
        #expect(Self.entries(onair_codec_sample_formats(aac), until: AV_SAMPLE_FMT_NONE) == [AV_SAMPLE_FMT_FLTP])
        // The native AAC encoder's layouts (mono to 7.1 where the version lists them), ended by a zeroed one.
        var layouts: [Int32] = []
        if var layout = onair_codec_channel_layouts(aac) {
            while layout.pointee.nb_channels > 0, layouts.count < 64 {
                layouts.append(layout.pointee.nb_channels)
                layout += 1
            }
        }
        #expect(layouts.isEmpty || (layouts.contains(1) && layouts.contains(2)), "\(layouts)")
    }

    @Test func theWriteCallbackTypeIsTheInstalledHeadersOne() throws {
        let made = avio_alloc_context(
            av_malloc(4096)?.assumingMemoryBound(to: UInt8.self), 4096, 1, nil, nil, { _, _, count in count }, nil)
        let context = try #require(made)
        // Compiles only where the shim's spelling is the header's.
        let callback: onair_avio_write_packet? = context.pointee.write_packet
        #expect(callback != nil)
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        av_freep(&pointer!.pointee.buffer)
        avio_context_free(&pointer)
    }
}
#endif
