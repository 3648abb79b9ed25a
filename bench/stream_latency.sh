#!/usr/bin/env bash
# End-to-end latency of `onair stream` per transport, on loopback: the synthetic source
# (1280x720 30 fps, real time) stamps every frame with the wall clock, `onair play
# --measure-latency --json` reads it back after decoding. Prints p50/p95/max in ms for SRT
# (latency=20000 µs), UDP, and RTMP through a private nginx (written like the Stream tests do).
#
#   bench/stream_latency.sh                     # 10 s per transport, preset veryfast, 2.5 Mb/s
#   SECONDS_EACH=20 PRESET=ultrafast bench/stream_latency.sh
#   ONAIR=.build-abr/release/onair bench/stream_latency.sh   # use an existing build
set -euo pipefail
cd "$(dirname "$0")/.."
each=${SECONDS_EACH:-10}
preset=${PRESET:-veryfast}
bitrate=${BITRATE:-2.5M}
. bench/loopback.sh
bench_workspace

stream_args=(stream --size 1280x720 --fps 30 --preset "$preset" --bitrate "$bitrate" --no-adaptive)

# run NAME RECEIVER_URL SENDER_URL [receiver-first|sender-first]
run() {
    local name=$1 receive=$2 send=$3 order=$4 out="$work/$1.json"
    if [ "$order" = receiver-first ]; then
        "$ONAIR" play --no-display --measure-latency --json --duration "$each" --timeout 20 "$receive" >"$out" 2>"$work/$name.play.log" &
        local player=$!; pids+=("$player")
        sleep 1
        "$ONAIR" "${stream_args[@]}" --duration $((each + 4)) "$send" 2>"$work/$name.stream.log" &
        local streamer=$!; pids+=("$streamer")
    else
        "$ONAIR" "${stream_args[@]}" --duration $((each + 5)) "$send" 2>"$work/$name.stream.log" &
        local streamer=$!; pids+=("$streamer")
        sleep 2
        "$ONAIR" play --no-display --measure-latency --json --duration "$each" --timeout 20 "$receive" >"$out" 2>"$work/$name.play.log" &
        local player=$!; pids+=("$player")
    fi
    wait "$player" || { echo "$name: onair play failed:" >&2; tail -5 "$work/$name.play.log" >&2; }
    wait "$streamer" || { echo "$name: onair stream failed:" >&2; tail -5 "$work/$name.stream.log" >&2; }
    python3 - "$name" "$out" <<'PY'
import json, sys
name, path = sys.argv[1], sys.argv[2]
try:
    report = json.load(open(path))
    l = report["latency_ms"]
    print(f"{name:5s} p50 {l['p50']:7.1f} ms   p95 {l['p95']:7.1f} ms   max {l['max']:7.1f} ms   ({l['samples']} frames, {report.get('freezes', '-')} freezes)")
except Exception as error:
    print(f"{name:5s} no measurement ({error})")
PY
}

srt_port=$(free_port udp)
run srt "srt://127.0.0.1:$srt_port?mode=listener&latency=20000" "srt://127.0.0.1:$srt_port?latency=20000" receiver-first

udp_port=$(free_port udp)
run udp "udp://127.0.0.1:$udp_port" "udp://127.0.0.1:$udp_port?pkt_size=1316" receiver-first

rtmp_port=$(free_port tcp)
write_nginx_conf "$work/nginx" "$rtmp_port"
start_nginx "$work/nginx" "$rtmp_port"
pids+=("$nginx_pid")
run rtmp "rtmp://127.0.0.1:$rtmp_port/live/bench" "rtmp://127.0.0.1:$rtmp_port/live/bench" sender-first
