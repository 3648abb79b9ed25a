#!/usr/bin/env bash
# Side by side: `onair encode` and `ffmpeg` on the same input with the same x264 preset, tune,
# bitrate, VBV, GOP and AAC bitrate. Reports CPU seconds, wall time and peak memory of each and
# their ratios (onair / ffmpeg), then onair's per-frame encode latency p50/p99 at 1280x720 30 fps
# in real-time mode (tune zerolatency).
#
#   bench/encode_vs_ffmpeg.sh            # 20 s of 1280x720 30 fps, preset veryfast, 2 Mb/s
#   BENCH_SECONDS=60 PRESET=medium bench/encode_vs_ffmpeg.sh
set -euo pipefail
cd "$(dirname "$0")/.."
length=${BENCH_SECONDS:-20}
preset=${PRESET:-veryfast}
bitrate=${BITRATE:-2M}
maxrate=${MAXRATE:-3M}        # onair's default data-rate limit: 1.5 x bitrate over 1 s
keyint=${KEYINT:-60}
abitrate=${AUDIO_BITRATE:-128k}
runs=${RUNS:-3}
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 1; }

swift build -c release --product onair >&2
onair=$(swift build -c release --show-bin-path)/onair
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Natural-looking, moving detail (a Mandelbrot zoom) plus a tone, stored near-losslessly so both
# tools spend the same on decoding.
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "mandelbrot=size=1280x720:rate=30" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000" -t "$length" -ac 2 \
    -c:v libx264 -preset ultrafast -crf 12 -c:a pcm_s16le "$work/input.mkv"

measure() { # name, command… → prints "wall user+sys peak_kb"
    local name=$1; shift
    /usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$@" >/dev/null 2>"$work/$name.log" || {
        cat "$work/$name.log" >&2; exit 1; }
    awk '{ printf "%s %.2f %d\n", $1, $2 + $3, $4 }' "$work/$name.time"
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

declare -A wall cpu mem
for tool in onair ffmpeg; do
    : >"$work/$tool.runs"
    for _ in $(seq "$runs"); do
        if [ "$tool" = onair ]; then
            measure onair "$onair" encode "$work/input.mkv" -o "$work/onair.mp4" --preset "$preset" \
                --bitrate "$bitrate" --keyint "$keyint" --keyint-duration 0 --no-bframes --no-realtime \
                --audio-bitrate "$abitrate" >>"$work/$tool.runs"
        else
            measure ffmpeg ffmpeg -hide_banner -nostdin -y -i "$work/input.mkv" -c:v libx264 -preset "$preset" \
                -b:v "$bitrate" -maxrate "$maxrate" -bufsize "$maxrate" -g "$keyint" -bf 0 \
                -c:a aac -b:a "$abitrate" -movflags +frag_keyframe+empty_moov+default_base_moof \
                "$work/ffmpeg.mp4" >>"$work/$tool.runs"
        fi
    done
    wall[$tool]=$(awk '{print $1}' "$work/$tool.runs" | median)
    cpu[$tool]=$(awk '{print $2}' "$work/$tool.runs" | median)
    mem[$tool]=$(awk '{print $3}' "$work/$tool.runs" | median)
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
echo "encode of ${length} s 1280x720 30 fps + stereo 48 kHz; x264 preset $preset, $bitrate (VBV $maxrate/1 s), GOP $keyint, no B-frames, AAC $abitrate; median of $runs runs"
printf "%-8s %10s %10s %12s\n" "" "CPU s" "wall s" "peak MB"
for tool in onair ffmpeg; do
    printf "%-8s %10s %10s %12.1f\n" "$tool" "${cpu[$tool]}" "${wall[$tool]}" "$(awk -v k="${mem[$tool]}" 'BEGIN{print k/1024}')"
done
printf "%-8s %10s %10s %12s\n" "ratio" "$(ratio "${cpu[onair]}" "${cpu[ffmpeg]}")" \
    "$(ratio "${wall[onair]}" "${wall[ffmpeg]}")" "$(ratio "${mem[onair]}" "${mem[ffmpeg]}")"
for tool in onair ffmpeg; do
    size=$(stat -c %s "$work/$tool.mp4")
    echo "$tool output: $((size * 8 / length / 1000)) kb/s overall"
done

# Per-frame encode latency in real-time mode (no lookahead, no B-frames, sliced threads).
"$onair" encode "$work/input.mkv" -o "$work/realtime.mp4" --no-audio --realtime --preset "$preset" \
    --bitrate "$bitrate" --keyint "$keyint" 2>"$work/realtime.log" >/dev/null
echo "onair real-time encode latency (1280x720 30 fps, per frame): $(grep -o 'encode latency.*' "$work/realtime.log")"
