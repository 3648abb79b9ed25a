#!/usr/bin/env bash
# Side by side: `onair encode` and `ffmpeg` on the same input with the same x264 preset, tune,
# bitrate, VBV, GOP and AAC bitrate. Reports CPU seconds, wall time, peak memory, minor page
# faults and system time of each and their ratios (onair / ffmpeg), then onair's per-frame encode
# latency p50/p99 at 1280x720 30 fps in real-time mode (tune zerolatency).
#
# Two inputs, made at bench time (no media committed):
#   synthetic  a Mandelbrot zoom 1280x720 30 fps + a stereo tone, near-lossless (both tools spend
#              little on decoding); x264 no B-frames, GOP 60, no tune
#   camera     a camera-like clip: 1280x720 25 fps moving test pattern with temporal grain
#              (noise) stored as ordinary H.264 (crf 20), 5.1 AAC 384 kb/s; re-encoded as the issue
#              measured it: x264 tune zerolatency, 2 Mb/s, VBV 3 Mb, GOP 50, AAC 128 kb/s stereo
# Runs alternate between the tools (run 1 of each, then run 2 of each, …) so that load from other
# work on the machine falls on all of them alike; `uptime` is printed before and after.
#
#   bench/encode_vs_ffmpeg.sh                 # 20 s per input, preset veryfast, 2 Mb/s, 5 runs
#   BENCH_SECONDS=60 PRESET=medium RUNS=3 INPUTS=camera bench/encode_vs_ffmpeg.sh
#   ONAIR=path/to/onair bench/encode_vs_ffmpeg.sh            # an existing build
#   BEFORE=/tmp/old/.build/release/onair bench/encode_vs_ffmpeg.sh   # also time another build
set -euo pipefail
cd "$(dirname "$0")/.."
length=${BENCH_SECONDS:-20}
preset=${PRESET:-veryfast}
bitrate=${BITRATE:-2M}
maxrate=${MAXRATE:-3M}        # onair's default data-rate limit: 1.5 x bitrate over 1 s
abitrate=${AUDIO_BITRATE:-128k}
runs=${RUNS:-5}
inputs=${INPUTS:-synthetic camera}
. bench/common.sh

make_input() { # name → $work/NAME.mkv|mp4
    case $1 in
    synthetic)
        ffmpeg -hide_banner -loglevel error -y -f lavfi -i "mandelbrot=size=1280x720:rate=30" \
            -f lavfi -i "sine=frequency=440:sample_rate=48000" -t "$length" -ac 2 \
            -c:v libx264 -preset ultrafast -crf 12 -c:a pcm_s16le "$work/synthetic.mkv" ;;
    camera) make_camera_clip "$length" "$work/camera.mp4" ;;
    esac
}

run_tool() { # tool, input name
    local tool=$1 input=$2 file=$work/camera.mp4
    [ "$input" = synthetic ] && file=$work/synthetic.mkv
    case "$input:$tool" in
    synthetic:ffmpeg)
        measure ffmpeg ffmpeg -hide_banner -nostdin -y -i "$file" -c:v libx264 -preset "$preset" \
            -b:v "$bitrate" -maxrate "$maxrate" -bufsize "$maxrate" -g 60 -bf 0 \
            -c:a aac -b:a "$abitrate" -movflags +frag_keyframe+empty_moov+default_base_moof "$work/out.mp4" ;;
    synthetic:*)
        local bin=$ONAIR; [ "$tool" = before ] && bin=$BEFORE
        measure "$tool" "$bin" encode "$file" -o "$work/out.mp4" --preset "$preset" \
            --bitrate "$bitrate" --keyint 60 --keyint-duration 0 --no-bframes --no-realtime \
            --audio-bitrate "$abitrate" ;;
    camera:ffmpeg)
        measure ffmpeg ffmpeg -hide_banner -nostdin -y -i "$file" -c:v libx264 -preset "$preset" -tune zerolatency \
            -b:v "$bitrate" -maxrate "$maxrate" -bufsize "$maxrate" -g 50 -bf 0 \
            -c:a aac -b:a "$abitrate" -ac 2 -movflags +frag_keyframe+empty_moov+default_base_moof "$work/out.mp4" ;;
    camera:*)
        local bin=$ONAIR; [ "$tool" = before ] && bin=$BEFORE
        measure "$tool" "$bin" encode "$file" -o "$work/out.mp4" --preset "$preset" --realtime \
            --bitrate "$bitrate" --keyint 50 --keyint-duration 0 --no-bframes \
            --audio-bitrate "$abitrate" --audio-channels 2 ;;
    esac
}

echo "load before: $(uptime)"
for input in $inputs; do
    make_input "$input"
    for tool in $tools; do : >"$work/$input.$tool.runs"; done
    for _ in $(seq "$runs"); do
        for tool in $tools; do run_tool "$tool" "$input" >>"$work/$input.$tool.runs"; done
    done
    echo
    if [ "$input" = synthetic ]; then
        echo "synthetic: ${length} s 1280x720 30 fps + stereo 48 kHz; x264 preset $preset, $bitrate (VBV $maxrate/1 s), GOP 60, no B-frames, AAC $abitrate; median of $runs runs"
    else
        echo "camera: ${length} s 1280x720 25 fps noisy moving picture + 5.1 AAC; x264 preset $preset tune zerolatency, $bitrate (VBV $maxrate/1 s), GOP 50, AAC $abitrate stereo; median of $runs runs"
    fi
    print_table "$input"
done
echo
echo "load after: $(uptime)"

if [ -z "${SKIP_LATENCY:-}" ]; then
    # Per-frame encode latency in real-time mode (no lookahead, no B-frames, sliced threads).
    file=$(ls "$work"/synthetic.mkv "$work"/camera.mp4 2>/dev/null | head -1)
    "$ONAIR" encode "$file" -o "$work/realtime.mp4" --no-audio --realtime --preset "$preset" \
        --bitrate "$bitrate" 2>"$work/realtime.log" >/dev/null
    echo "onair real-time encode latency (1280x720, per frame): $(grep -o 'encode latency.*' "$work/realtime.log")"
fi
