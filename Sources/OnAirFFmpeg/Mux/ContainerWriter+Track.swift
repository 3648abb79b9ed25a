#if os(Linux)
import CFFmpeg
import OnAirCore

extension ContainerWriter {
    /// One stream to create in the container.
    package struct Track: Sendable {
        /// Video or audio.
        package var mediaType: MediaType
        /// The codec of the packets.
        package var codec: MediaCodec
        /// Out-of-band configuration: avcC for H.264, AudioSpecificConfig for AAC (may be empty).
        package var extradata: [UInt8]
        /// Video size (ignored for audio).
        package var width: Int, height: Int
        /// Nominal frame rate, used as a hint by some containers (0 when unknown).
        package var frameRate: Double
        /// Audio sample rate and channels (ignored for video).
        package var sampleRate: Int, channels: Int
        /// Average bitrate in bits per second, written where the container records it (0 when unknown).
        package var bitRate: Int

        /// Describes a video track.
        package static func video(
            _ codec: MediaCodec = .h264, width: Int, height: Int, frameRate: Double,
            extradata: [UInt8], bitRate: Int = 0
        ) -> Track {
            Track(
                mediaType: .video, codec: codec, extradata: extradata, width: width, height: height,
                frameRate: frameRate, sampleRate: 0, channels: 0, bitRate: bitRate)
        }

        /// Describes an audio track.
        package static func audio(
            _ codec: MediaCodec = .aac, sampleRate: Int, channels: Int,
            extradata: [UInt8], bitRate: Int = 0
        ) -> Track {
            Track(
                mediaType: .audio, codec: codec, extradata: extradata, width: 0, height: 0,
                frameRate: 0, sampleRate: sampleRate, channels: channels, bitRate: bitRate)
        }
    }

    /// Adds a stream for `track` to the muxer: its codec parameters, extradata and time base.
    func addStream(_ track: Track) throws {
        guard let context, let stream = avformat_new_stream(context, nil), let par = stream.pointee.codecpar else {
            throw FFmpegError(code: onair_averror(12), operation: "add a stream to \(destination)")
        }
        par.pointee.codec_type = track.mediaType == .video ? AVMEDIA_TYPE_VIDEO : AVMEDIA_TYPE_AUDIO
        switch track.codec {
        case .h264: par.pointee.codec_id = AV_CODEC_ID_H264
        case .h265:
            par.pointee.codec_id = AV_CODEC_ID_HEVC
            try checkHEVC(par)
        case .aac: par.pointee.codec_id = AV_CODEC_ID_AAC
        case .opus: par.pointee.codec_id = AV_CODEC_ID_OPUS
        }
        par.pointee.bit_rate = Int64(track.bitRate)
        if track.mediaType == .video {
            par.pointee.width = Int32(track.width)
            par.pointee.height = Int32(track.height)
            par.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            if track.frameRate > 0 {
                let rate = av_d2q(track.frameRate, 1_000_000)
                stream.pointee.avg_frame_rate = rate
                stream.pointee.r_frame_rate = rate
            }
            stream.pointee.time_base = AVRational(num: 1, den: 90_000)
        } else {
            par.pointee.sample_rate = Int32(track.sampleRate)
            onair_default_channel_layout(&par.pointee.ch_layout, Int32(track.channels))
            par.pointee.frame_size = track.codec == .opus ? 960 : 1024
            stream.pointee.time_base = AVRational(num: 1, den: Int32(track.sampleRate))
        }
        if !track.extradata.isEmpty {
            let size = track.extradata.count
            guard let buffer = av_mallocz(size + Int(AV_INPUT_BUFFER_PADDING_SIZE))?.assumingMemoryBound(to: UInt8.self) else {
                throw FFmpegError(code: onair_averror(12), operation: "allocate extradata")
            }
            buffer.update(from: track.extradata, count: size)
            par.pointee.extradata = buffer
            par.pointee.extradata_size = Int32(size)
        }
    }
}
#endif
