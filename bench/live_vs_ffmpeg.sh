#!/usr/bin/env bash
# The live path side by side with ffmpeg: `onair record --video file:X --audio file:X` (the file
# source paced at real time, as a camera would deliver) against `ffmpeg -re -i X` with the same
# settings (x264 preset veryfast, tune zerolatency, 2 Mb/s, VBV 3 Mb, GOP 50, AAC 128 kb/s
# stereo, fragmented MP4). Both take the input's length in wall time, so CPU seconds, peak
# memory and system time are what count. Runs alternate between the tools; `uptime` is printed.
#
# The input is made at bench time: a camera-like 1280x720 25 fps moving pattern with temporal
# grain, H.264 crf 20, plus 5.1 AAC.
#
#   bench/live_vs_ffmpeg.sh                        # 20 s input, 5 runs each
#   BENCH_SECONDS=30 RUNS=3 bench/live_vs_ffmpeg.sh
#   ONAIR=path/to/onair BEFORE=/tmp/old/onair bench/live_vs_ffmpeg.sh   # also time another build
set -euo pipefail
cd "$(dirname "$0")/.."
length=${BENCH_SECONDS:-20}
preset=${PRESET:-veryfast}
runs=${RUNS:-5}
. bench/common.sh

make_camera_clip "$length" "$work/camera.mp4"

run_tool() {
    local tool=$1 input=$work/camera.mp4
    if [ "$tool" = ffmpeg ]; then
        measure ffmpeg ffmpeg -hide_banner -nostdin -y -re -i "$input" -c:v libx264 -preset "$preset" -tune zerolatency \
            -b:v 2M -maxrate 3M -bufsize 3M -g 50 -bf 0 -c:a aac -b:a 128k -ac 2 \
            -movflags +frag_keyframe+empty_moov+default_base_moof "$work/out.mp4"
    else
        local bin=$ONAIR; [ "$tool" = before ] && bin=$BEFORE
        measure "$tool" "$bin" record --video "file:$input" --audio "file:$input" -o "$work/out.mp4" \
            --preset "$preset" --bitrate 2M --keyint 50 --keyint-duration 0 --audio-bitrate 128k --audio-channels 2
    fi
}

echo "load before: $(uptime)"
for tool in $tools; do : >"$work/live.$tool.runs"; done
for run in $(seq "$runs"); do
    for tool in $(run_order "$run"); do
        run_tool "$tool" >>"$work/live.$tool.runs"
        # Frames that made it to the output: a live encoder that falls behind drops frames (and
        # so spends less), `ffmpeg -re` falls behind instead; compare CPU only where these agree.
        ffprobe -v error -select_streams v -count_packets -show_entries stream=nb_read_packets -of csv=p=0 \
            "$work/out.mp4" >>"$work/live.$tool.frames"
    done
done
echo "live: ${length} s 1280x720 25 fps + 5.1 AAC file paced at real time; x264 $preset zerolatency 2 Mb/s VBV 3 Mb GOP 50, AAC 128 kb/s stereo; median of $runs runs"
print_table live
for tool in $tools; do echo "$tool: $(median <"$work/live.$tool.frames") video frames written (median; the input has $((length * 25)))"; done
echo "load after: $(uptime)"
