#!/usr/bin/env bash
# Side by side: `onair encode` and `ffmpeg` on the same input with the same x264 preset, tune,
# bitrate, VBV, GOP and AAC bitrate. Reports CPU seconds, wall time, peak memory, minor page
# faults and system time of each and their ratios (onair / ffmpeg), then the per-frame encode
# latency p50/p99 at 1280x720 30 fps in real-time mode (tune zerolatency): live, onair's session
# statistics beside ffmpeg -re's own -benchmark_all timings of libx264, and `onair encode` flat out.
#
# Two inputs, made at bench time (no media committed):
#   synthetic  a Mandelbrot zoom 1280x720 30 fps 4:2:0 + a stereo tone, near-lossless; x264 no
#              B-frames, GOP 60, no tune. (4:2:0 as a camera gives it: from the Mandelbrot's RGB, x264
#              would otherwise store 4:4:4, which ffmpeg keeps and onair scales to 4:2:0 — not the
#              same job.)
#   camera     a camera-like clip: 1280x720 25 fps moving test pattern with temporal grain
#              (noise) stored as ordinary H.264 (crf 20), 5.1 AAC 384 kb/s; re-encoded as the issue
#              measured it: x264 tune zerolatency, 2 Mb/s, VBV 3 Mb, GOP 50, AAC 128 kb/s stereo
# Runs alternate between the tools (run 1 of each, then run 2 of each in the reverse order, …) so
# that load from other work on the machine falls on all of them alike; besides the ratio of the
# medians, the median of the per-run ratios is printed with its range. `uptime` is printed before
# and after.
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
            -c:v libx264 -preset ultrafast -crf 12 -pix_fmt yuv420p -c:a pcm_s16le "$work/synthetic.mkv" ;;
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
    for run in $(seq "$runs"); do
        for tool in $(run_order "$run"); do run_tool "$tool" "$input" >>"$work/$input.$tool.runs"; done
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
    # Per-frame encode latency in real-time mode (tune zerolatency: no lookahead, no B-frames,
    # sliced threads), 1280x720 30 fps, GOP 60, x264 $preset, $bitrate.
    # 1. The live path at 30 fps: the synthetic input read as a camera would deliver it (paced at
    #    real time), `onair record` against `ffmpeg -re` with -benchmark_all (the wall time of each
    #    libx264 encode call), picture only. onair's figures are the session's own statistics.
    # 2. `onair encode` as fast as it goes (the decoder works on the other core meanwhile).
    [ -f "$work/synthetic.mkv" ] || make_input synthetic
    file=$work/synthetic.mkv
    "$ONAIR" record --video "file:$file" --audio none -o "$work/live.mp4" --preset "$preset" \
        --bitrate "$bitrate" --keyint 60 --keyint-duration 0 --stats-json "$work/live.json" >/dev/null 2>"$work/live.log" || {
        cat "$work/live.log" >&2; exit 1; }
    ffmpeg -hide_banner -nostdin -y -re -i "$file" -an -c:v libx264 -preset "$preset" -tune zerolatency \
        -b:v "$bitrate" -maxrate "$maxrate" -bufsize "$maxrate" -g 60 -bf 0 -benchmark_all \
        -f mp4 -movflags +frag_keyframe+empty_moov "$work/live-ffmpeg.mp4" </dev/null 2>"$work/live-ffmpeg.log" >/dev/null
    echo
    echo "real-time encode latency per frame, live at 1280x720 30 fps (x264 $preset zerolatency, $bitrate, GOP 60):"
    python3 - "$work/live.json" "$work/live-ffmpeg.log" "$work/live-ffmpeg.mp4" <<'PY'
import json, re, subprocess, sys
final = [json.loads(line) for line in open(sys.argv[1]) if line.strip()][-1]
o50, o99, okey = final["encode_latency_p50_ms"], final["encode_latency_p99_ms"], final["keyframe_encode_latency_ms"]
# ffmpeg: the real time (µs) of its "encode_video" steps — send_frame, then receive_packet; a
# frame's steps come together, between the decode steps — summed per frame. With sliced threads
# the packet comes out in that frame's steps. Keyframes by position in the output (ffprobe).
times, group = [], None
for m in re.finditer(r"bench:\s+\d+ user\s+\d+ sys\s+(\d+) real (\w+)", open(sys.argv[2]).read()):
    if m.group(2) == "encode_video":
        group = (group or 0) + int(m.group(1)) / 1000
    elif group is not None:
        times.append(group)
        group = None
if group is not None:
    times.append(group)   # the last frame's steps run into the encoder's flush
flags = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "packet=flags",
                        "-of", "csv=p=0", sys.argv[3]], capture_output=True, text=True).stdout.split()
def pct(values, p):
    values = sorted(values)
    return values[min(max(-(-len(values) * p // 100), 1), len(values)) - 1]
f50, f99 = pct(times, 50), pct(times, 99)
keys = [t for t, flag in zip(times[1:], flags[1:]) if flag.startswith("K")]   # frame 0 also opens threads
fkey = pct(keys, 50) if keys else float("nan")
print(f"  onair   p50 {o50:6.2f} ms  p99 {o99:6.2f} ms  p99/p50 {o99 / o50:4.2f}  keyframes p50 {okey:6.2f} ms")
print(f"  ffmpeg  p50 {f50:6.2f} ms  p99 {f99:6.2f} ms  p99/p50 {f99 / f50:4.2f}  keyframes p50 {fkey:6.2f} ms  ({len(times)} frames)")
print(f"  onair/ffmpeg: p50 {o50 / f50:4.2f}, p99 {o99 / f99:4.2f}")
PY
    "$ONAIR" encode "$file" -o "$work/realtime.mp4" --no-audio --realtime --preset "$preset" \
        --bitrate "$bitrate" 2>"$work/realtime.log" >/dev/null
    echo "onair encode as fast as it goes: $(grep -o 'encode latency.*' "$work/realtime.log")"
fi
