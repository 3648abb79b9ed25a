// The FFmpeg headers OnAir uses, plus static inline wrappers for the macros Swift cannot import.
#ifndef ONAIR_CFFMPEG_SHIM_H
#define ONAIR_CFFMPEG_SHIM_H

#include <libavcodec/avcodec.h>
#include <libavcodec/bsf.h>
#include <libavdevice/avdevice.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/hwcontext.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

/// The file name of the libavdevice these headers belong to ("libavdevice.so.59"), for dlopen:
/// OnAir loads libavdevice only when a capture device is used.
static inline const char *onair_avdevice_library_name(void) {
    return "libavdevice.so." AV_STRINGIFY(LIBAVDEVICE_VERSION_MAJOR);
}

/// The type of `AVIOContext.write_packet`: libavformat 61 (FFmpeg 7) made its buffer `const`.
/// Swift cannot read the version macro, so the choice is made here.
#if LIBAVFORMAT_VERSION_MAJOR >= 61
typedef int (*onair_avio_write_packet)(void *opaque, const uint8_t *buf, int buf_size);
#else
typedef int (*onair_avio_write_packet)(void *opaque, uint8_t *buf, int buf_size);
#endif

/// What an encoder supports, each list ended by its sentinel (AV_PIX_FMT_NONE, AV_SAMPLE_FMT_NONE,
/// a zeroed layout), or NULL when it names none. libavcodec 61.13 (FFmpeg 7.1) deprecated the
/// AVCodec fields for avcodec_get_supported_config; which one is read is chosen here.
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(61, 13, 100)
static inline const void *onair_codec_supported(const AVCodec *codec, enum AVCodecConfig config) {
    const void *configs = NULL;
    int count = 0;
    if (avcodec_get_supported_config(NULL, codec, config, 0, &configs, &count) < 0) return NULL;
    return configs;
}
static inline const enum AVPixelFormat *onair_codec_pixel_formats(const AVCodec *codec) {
    return (const enum AVPixelFormat *)onair_codec_supported(codec, AV_CODEC_CONFIG_PIX_FORMAT);
}
static inline const enum AVSampleFormat *onair_codec_sample_formats(const AVCodec *codec) {
    return (const enum AVSampleFormat *)onair_codec_supported(codec, AV_CODEC_CONFIG_SAMPLE_FORMAT);
}
static inline const AVChannelLayout *onair_codec_channel_layouts(const AVCodec *codec) {
    return (const AVChannelLayout *)onair_codec_supported(codec, AV_CODEC_CONFIG_CHANNEL_LAYOUT);
}
#else
static inline const enum AVPixelFormat *onair_codec_pixel_formats(const AVCodec *codec) { return codec->pix_fmts; }
static inline const enum AVSampleFormat *onair_codec_sample_formats(const AVCodec *codec) { return codec->sample_fmts; }
static inline const AVChannelLayout *onair_codec_channel_layouts(const AVCodec *codec) { return codec->ch_layouts; }
#endif

/// AVERROR(e) for a POSIX errno value.
static inline int onair_averror(int posixError) { return AVERROR(posixError); }
/// AVERROR(EAGAIN): the codec wants more input or has output pending.
static inline int onair_averror_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EOF: end of stream.
static inline int onair_averror_eof(void) { return AVERROR_EOF; }
/// AVERROR_ENCODER_NOT_FOUND.
static inline int onair_averror_encoder_not_found(void) { return AVERROR_ENCODER_NOT_FOUND; }
/// AVERROR_INVALIDDATA.
static inline int onair_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
/// AV_NOPTS_VALUE: "no timestamp".
static inline int64_t onair_nopts_value(void) { return AV_NOPTS_VALUE; }
/// AV_TIME_BASE as a rational (microseconds).
static inline AVRational onair_time_base_q(void) { return (AVRational){1, AV_TIME_BASE}; }

/// FFmpeg's own message for an error code (what av_err2str gives), written into buf.
static inline const char *onair_err2str(int errnum, char *buf, size_t size) {
    av_strerror(errnum, buf, size);
    return buf;
}

/// Default channel layout for a channel count (AV_CHANNEL_LAYOUT_* constants are macros).
static inline void onair_default_channel_layout(AVChannelLayout *layout, int channels) {
    av_channel_layout_default(layout, channels);
}
static inline AVChannelLayout onair_channel_layout_mono(void) { return (AVChannelLayout)AV_CHANNEL_LAYOUT_MONO; }
static inline AVChannelLayout onair_channel_layout_stereo(void) { return (AVChannelLayout)AV_CHANNEL_LAYOUT_STEREO; }
static inline AVChannelLayout onair_channel_layout_5point1(void) { return (AVChannelLayout)AV_CHANNEL_LAYOUT_5POINT1; }
static inline AVChannelLayout onair_channel_layout_7point1(void) { return (AVChannelLayout)AV_CHANNEL_LAYOUT_7POINT1; }

/// AV_PKT_FLAG_KEY, AV_CODEC_FLAG_GLOBAL_HEADER, AVFMT_GLOBALHEADER and AVFMT_NOFILE as ints.
static inline int onair_pkt_flag_key(void) { return AV_PKT_FLAG_KEY; }
static inline int onair_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
static inline int onair_fmt_globalheader(void) { return AVFMT_GLOBALHEADER; }
static inline int onair_fmt_nofile(void) { return AVFMT_NOFILE; }

#endif
