#!/usr/bin/env bash
# Glass-to-glass latency of `onair play` against ffplay, measured on the screen.
#
# For each picture size (320x240 and 1280x720, 30 fps) and each transport (SRT with
# latency=20000 µs, UDP, RTMP through a private nginx), `onair stream` sends the live synthetic
# source on loopback (every frame carries the sender's wall-clock capture time), a player shows it
# in a private Xvfb whose screen is the picture's size and plays its sound into a private
# PulseAudio null sink, and ffmpeg records the screen (x11grab, 60 fps) and the sink's monitor with
# wall-clock timestamps (-copyts). `onair play --analyze-screen` then reads the frame codes off the
# recorded screen: latency = the moment a frame first appears on the screen minus its capture
# time. The same is done with `ffplay -fflags nobuffer -flags low_delay -framedrop` on the same
# stream. Prints p50/p95 glass-to-glass, frames skipped in steady state, the A/V offset of the
# flashes seen and beeps heard, the player's CPU (% of one core) over the recording, and the
# onair/ffplay ratio of the p50s.
#
#   bench/play_latency.sh                         # 8 s recorded per run
#   RECORD=12 SIZES="1280x720" TRANSPORTS="srt udp" bench/play_latency.sh
#   ONAIR=.build/release/onair bench/play_latency.sh   # use an existing build
#   PLAY_ARGS="--latency 0" PLAYERS=onair bench/play_latency.sh   # onair play with other options
#   STREAM_ARGS=--no-audio bench/play_latency.sh  # a picture-only stream: what the players add
#                                                 # without the sound (and its encoder delay) as clock
# FFPLAY_ARGS passes options to ffplay the same way.
set -euo pipefail
cd "$(dirname "$0")/.."
record=${RECORD:-8}
settle=${SETTLE:-4}
sizes=${SIZES:-"320x240 1280x720"}
transports=${TRANSPORTS:-"srt udp rtmp"}
players=${PLAYERS:-"onair ffplay"}
if [ -z "${ONAIR:-}" ]; then
    ONAIR=$(bash scripts/build.sh)
fi
for tool in Xvfb pulseaudio ffmpeg ffplay nginx python3; do
    command -v "$tool" >/dev/null || { echo "play_latency: $tool is not installed (scripts/setup.sh)" >&2; exit 1; }
done
. bench/loopback.sh
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    [ -f "$work/pulse/run/pid" ] && kill -9 "$(cat "$work/pulse/run/pid")" 2>/dev/null || true
    [ -n "${display:-}" ] && rm -f "/tmp/.X11-unix/X${display#:}" "/tmp/.X${display#:}-lock"
    rm -rf "$work"
}
trap cleanup EXIT

cpu_ticks() {  # user+system clock ticks of a process so far
    awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0
}

# A private PulseAudio with a null sink (as Tests/OnAirTestSupport/CaptureTestServers.swift runs it).
mkdir -p "$work/pulse/run"
env HOME="$work/pulse" XDG_RUNTIME_DIR="$work/pulse" PULSE_RUNTIME_PATH="$work/pulse/run" \
    pulseaudio --daemonize=yes --exit-idle-time=-1 -n --disable-shm --log-target=file:"$work/pulse/log" \
    --load="module-native-protocol-unix socket=$work/pulse/native auth-anonymous=1" \
    --load="module-null-sink sink_name=onair_bench"
export PULSE_SERVER="unix:$work/pulse/native" SDL_AUDIODRIVER=pulseaudio SDL_VIDEODRIVER=x11

# A private nginx with the RTMP module.
rtmp_port=$(free_port tcp)
write_nginx_conf "$work/nginx" "$rtmp_port"
start_nginx "$work/nginx" "$rtmp_port"
pids+=("$nginx_pid")

start_display() {  # a private Xvfb whose screen is the picture's size
    local size=$1
    for n in $(seq 90 189); do
        [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] || { display=":$n"; break; }
    done
    Xvfb "$display" -screen 0 "${size}x24" -nolisten tcp -noreset >/dev/null 2>&1 &
    xvfb=$!
    pids+=($xvfb)
    for _ in $(seq 100); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done
    export DISPLAY=$display
}

stop_display() {
    kill -9 "$xvfb" 2>/dev/null || true
    wait "$xvfb" 2>/dev/null || true
    rm -f "/tmp/.X11-unix/X${display#:}" "/tmp/.X${display#:}-lock"
}

# run SIZE TRANSPORT PLAYER: one measured run; prints one line.
run() {
    local size=$1 transport=$2 player=$3 send receive port
    case $transport in
        srt) port=$(free_port udp); send="srt://127.0.0.1:$port?mode=listener&latency=20000"; receive="srt://127.0.0.1:$port?latency=20000" ;;
        udp) port=$(free_port udp); send="udp://127.0.0.1:$port?pkt_size=1316"; receive="udp://127.0.0.1:$port" ;;
        rtmp) send="rtmp://127.0.0.1:$rtmp_port/live/bench$RANDOM"; receive=$send ;;
    esac
    local name="$size-$transport-$player" total=$((settle + record + 4))
    "$ONAIR" stream --size "$size" --fps 30 --duration $((total + 4)) ${STREAM_ARGS:-} "$send" 2>"$work/$name.stream.log" &
    local streamer=$!; pids+=("$streamer")
    sleep 1
    if [ "$player" = onair ]; then
        "$ONAIR" play "$receive" --duration "$total" --timeout 20 --json ${PLAY_ARGS:-} >"$work/$name.play.json" 2>"$work/$name.play.log" &
    else
        ffplay -hide_banner -loglevel error -fflags nobuffer -flags low_delay -framedrop ${FFPLAY_ARGS:-} \
            -left 0 -top 0 -noborder -x "${size%x*}" -y "${size#*x}" "$receive" 2>"$work/$name.play.log" &
    fi
    local playing=$!; pids+=("$playing")
    sleep "$settle"
    local before after
    before=$(cpu_ticks "$playing")
    ffmpeg -hide_banner -loglevel error -y -t "$record" -f x11grab -draw_mouse 0 -framerate 60 -video_size "$size" -i "$display" \
        -t "$record" -f pulse -i onair_bench.monitor -copyts -vsync passthrough -enc_time_base:v -1 \
        -c:v rawvideo -pix_fmt yuv420p -c:a pcm_s16le -f nut "$work/$name.nut" 2>"$work/$name.record.log" || true
    after=$(cpu_ticks "$playing")
    # onair play finishes on SIGINT; ffplay does not end a live input by itself.
    if [ "$player" = onair ]; then kill -INT "$playing" 2>/dev/null || true; else kill -9 "$playing" 2>/dev/null || true; fi
    wait "$playing" 2>/dev/null || true
    kill "$streamer" 2>/dev/null || true
    wait "$streamer" 2>/dev/null || true
    "$ONAIR" play --analyze-screen "$work/$name.nut" --json >"$work/$name.screen.json" 2>/dev/null || true
    rm -f "$work/$name.nut"
    python3 - "$name" "$work/$name.screen.json" "$before" "$after" "$record" "$(getconf CLK_TCK)" <<'PY'
import json, sys
name, path, before, after, seconds, tick = sys.argv[1:7]
cpu = (float(after) - float(before)) / float(tick) / float(seconds) * 100
try:
    s = json.load(open(path))
    l = s.get("latency_ms") or {}
    offsets = sorted(o["offset_ms"] for o in (s.get("sync") or {}).get("offsets", []))
    av = f"{offsets[len(offsets)//2]:6.1f}" if offsets else "   n/a"
    skipped = f"{s['steady_skipped']}/{s['steady_frames'] + s['steady_skipped']}"
    print(f"{name:24s} p50 {l.get('p50', float('nan')):7.1f} ms  p95 {l.get('p95', float('nan')):7.1f} ms  "
          f"skipped {skipped:8s} A/V {av} ms  cpu {cpu:5.1f} %")
except Exception as error:
    print(f"{name:24s} no measurement ({error})  cpu {cpu:5.1f} %")
PY
}

echo "load before: $(uptime)"
results="$work/results.txt"
for size in $sizes; do
    start_display "$size"
    for transport in $transports; do
        for player in $players; do
            run "$size" "$transport" "$player" | tee -a "$results"
        done
    done
    stop_display
done
echo "load after: $(uptime)"
python3 - "$results" <<'PY'
import re, sys
p50 = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\S+)-(onair|ffplay)\s+p50\s+([\d.]+)", line)
    if m: p50[(m.group(1), m.group(2))] = float(m.group(3))
for (run, player), value in sorted(p50.items()):
    if player == "onair" and (run, "ffplay") in p50:
        print(f"{run:18s} onair/ffplay p50 ratio {value / p50[(run, 'ffplay')]:.2f}")
PY
