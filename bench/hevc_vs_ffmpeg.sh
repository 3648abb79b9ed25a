#!/usr/bin/env bash
# H.265 side by side: `onair encode --codec h265` and `ffmpeg -c:v libx265` re-encoding the same
# camera-like clip (1280x720 25 fps noisy moving pattern, 5.1 AAC; made at bench time) with the same
# libx265 preset, bitrate, VBV, GOP and x265 options (IDR keyframes, parameter sets in band, closed
# GOP, no B-frames: what onair asks of libx265), AAC 128 kb/s stereo. Reports CPU seconds, wall
# time, peak memory and their ratios (onair / ffmpeg) — the same library does the work, so the
# target is ≤ 1.05×. Runs alternate between the tools as in bench/encode_vs_ffmpeg.sh.
#
# Then the disk an H.265 recording saves: on a clip of SSIM_SECONDS (default 300, the 5 minutes
# the README quotes) the SSIM (ffmpeg's ssim filter, against the clip) that `onair encode` reaches
# in H.264 at 2 Mb/s, and the H.265 bitrate that reaches the same SSIM (bisection over
# `onair encode --codec h265` bitrates, both codecs at the same preset and GOP).
#
#   bench/hevc_vs_ffmpeg.sh                                  # 20 s, preset veryfast, 2 Mb/s, 3 runs
#   PRESET=medium RUNS=5 BENCH_SECONDS=30 bench/hevc_vs_ffmpeg.sh
#   SSIM_SECONDS=60 bench/hevc_vs_ffmpeg.sh                  # a shorter clip for the SSIM part
#   SKIP_SSIM=1 bench/hevc_vs_ffmpeg.sh                      # the CPU part only
set -euo pipefail
cd "$(dirname "$0")/.."
length=${BENCH_SECONDS:-20}
preset=${PRESET:-veryfast}
bitrate=${BITRATE:-2M}
maxrate=${MAXRATE:-3M}
runs=${RUNS:-3}
ssim_seconds=${SSIM_SECONDS:-300}
. bench/common.sh

x265_params="keyint=50:min-keyint=1:bframes=0:forced-idr=1:repeat-headers=1:open-gop=0:log-level=error"

run_tool() { # tool
    case $1 in
    ffmpeg)
        measure ffmpeg ffmpeg -hide_banner -nostdin -y -i "$work/camera.mp4" -c:v libx265 -preset "$preset" \
            -b:v "$bitrate" -maxrate "$maxrate" -bufsize "$maxrate" -x265-params "$x265_params" -tag:v hvc1 \
            -c:a aac -b:a 128k -ac 2 "$work/out-ffmpeg.mp4" ;;
    *)
        local bin=$ONAIR; [ "$1" = before ] && bin=$BEFORE
        measure "$1" "$bin" encode "$work/camera.mp4" -o "$work/out-onair.mp4" --codec h265 --preset "$preset" \
            --bitrate "$bitrate" --keyint 50 --keyint-duration 0 --no-bframes --no-realtime \
            --audio-bitrate 128k --audio-channels 2 ;;
    esac
}

echo "load before: $(uptime)"
make_camera_clip "$length" "$work/camera.mp4"
for tool in $tools; do : >"$work/hevc.$tool.runs"; done
for run in $(seq "$runs"); do
    for tool in $(run_order "$run"); do run_tool "$tool" >>"$work/hevc.$tool.runs"; done
done
echo
echo "camera: ${length} s 1280x720 25 fps + 5.1 AAC → H.265 Main, libx265 preset $preset, $bitrate (VBV $maxrate/1 s), GOP 50, no B-frames, AAC 128k stereo; median of $runs runs"
print_table hevc
for out in onair ffmpeg; do
    echo "  $out: $(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,codec_tag_string,profile,bit_rate \
        -of csv=p=0 "$work/out-$out.mp4")"
done
echo "load after: $(uptime)"
[ -n "${SKIP_SSIM:-}" ] && exit 0

# SSIM of an encode against the clip it came from (the "All:" figure of ffmpeg's ssim filter).
ssim_of() {
    ffmpeg -hide_banner -nostdin -i "$1" -i "$work/long.mp4" -lavfi "[0:v][1:v]ssim" -f null - 2>&1 |
        sed -n 's/.*All:\([0-9.]*\).*/\1/p' | tail -1
}
encode_at() { # codec bitrate(kb/s) → SSIM
    "$ONAIR" encode "$work/long.mp4" -o "$work/ssim-$1.mp4" --codec "$1" --preset "$preset" --bitrate "${2}k" \
        --keyint 50 --keyint-duration 0 --no-bframes --no-realtime --no-audio >/dev/null 2>"$work/ssim.log" || {
        cat "$work/ssim.log" >&2; exit 1; }
    ssim_of "$work/ssim-$1.mp4"
}
echo
make_camera_clip "$ssim_seconds" "$work/long.mp4"
target=$(encode_at h264 2000)
echo "SSIM on ${ssim_seconds} s at preset $preset, GOP 50, no B-frames: H.264 at 2000 kb/s reaches $target"
low=400 high=2000
while [ $((high - low)) -gt 50 ]; do
    middle=$(((low + high) / 2))
    value=$(encode_at h265 "$middle")
    echo "  H.265 at ${middle} kb/s: SSIM $value"
    if awk -v a="$value" -v b="$target" 'BEGIN { exit !(a >= b) }'; then high=$middle; else low=$middle; fi
done
echo "H.265 reaches that SSIM at about ${high} kb/s: $(awk -v h="$high" 'BEGIN { printf "%.0f", 100 * h / 2000 }') % of the H.264 bitrate"
