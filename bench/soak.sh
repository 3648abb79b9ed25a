#!/usr/bin/env bash
# Soak: `onair stream` of the synthetic source to a private nginx-rtmp plus a local recording,
# for a long time, with nginx killed and restarted half-way and a viewer pulling for a while.
# Prints resident memory growth, the A/V offset at the end measured from the recording's
# timestamps (onair probe --sync, and ffmpeg's own decode), frames in the recording against
# what was encoded, and the reconnects.
#
#   bench/soak.sh                    # 1 h at 640x360 30 fps
#   bench/soak.sh 300 640x360        # 5 min
#   ONAIR=path/to/onair bench/soak.sh 3600 320x180
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-3600}
size=${2:-640x360}
fps=${FPS:-30}
if [ -z "${ONAIR:-}" ]; then
    ONAIR=$(bash scripts/build.sh)
fi
work=$(mktemp -d /tmp/onair-soak.XXXXXX)
pids=()
nginx_pid=
cleanup() {
    for pid in "${pids[@]}" $nginx_pid; do kill "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT
. bench/loopback.sh
port=$(free_port tcp)
write_nginx_conf "$work/nginx" "$port" "idle_streams on;"
url="rtmp://127.0.0.1:$port/live/soak"
recording="$work/local.mp4"
start_nginx "$work/nginx" "$port"
echo "soak: ${duration} s at ${size} ${fps} fps → $url and $recording (work dir $work)"
"$ONAIR" stream --size "$size" --fps "$fps" --duration "$duration" --stats-json "$work/stats.jsonl" \
    "$url" -o "$recording" 2>"$work/stream.log" &
stream=$!; pids+=("$stream")

# A viewer pulls for a fifth of the run (at most 5 min), starting at a tenth.
viewer_start=$(( duration / 10 ))
viewer_for=$(( duration / 5 < 300 ? duration / 5 : 300 ))
[ "$viewer_for" -ge 5 ] || viewer_for=5
( sleep "$viewer_start"; "$ONAIR" play "$url" --duration "$viewer_for" --json >"$work/viewer.json" 2>"$work/viewer.log" ) &
pids+=("$!")

# Half-way: the server goes away (SIGKILL) for 3 s and comes back.
sleep $(( duration / 2 ))
echo "soak: killing nginx at $(( duration / 2 )) s"
kill -9 "$nginx_pid"; wait "$nginx_pid" 2>/dev/null || true
sleep 3
start_nginx "$work/nginx" "$port"
echo "soak: nginx restarted"
status=0
wait "$stream" || status=$?
echo "soak: stream exited with status $status"

python3 - "$work" "$duration" "$fps" <<'PY'
import json, subprocess, sys
work, duration, fps = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
lines = [json.loads(l) for l in open(f"{work}/stats.jsonl") if l.strip()]
final = lines[-1]
# Resident memory: the first reading after a tenth of the run (warmed up) against the last.
warm = next((l for l in lines if l.get("elapsed", 0) >= duration / 10), lines[0])
rss0, rss1 = warm["resident_bytes"], lines[-1]["resident_bytes"]
peak = max(l["resident_bytes"] for l in lines)
print(f"resident memory: {rss0/1048576:.1f} MB at {warm['elapsed']:.0f} s → {rss1/1048576:.1f} MB at the end "
      f"({(rss1-rss0)/rss0*100:+.2f} %), peak {peak/1048576:.1f} MB")
print(f"reconnects: {final.get('reconnects')}, offline {final.get('offline_seconds', 0):.1f} s, "
      f"backlog skips {final.get('backlog_skips')}, dropped frames {final.get('dropped_frames')} "
      f"(at the source {final.get('source_skipped_frames')}), frames encoded {final.get('frames_out')}")
rec = f"{work}/local.mp4"
count = json.loads(subprocess.run(["ffprobe", "-v", "error", "-count_packets", "-select_streams", "v:0",
                                   "-show_entries", "stream=nb_read_packets", "-of", "json", rec],
                                  capture_output=True, text=True).stdout)["streams"][0]["nb_read_packets"]
print(f"frames in the recording: {count} (encoded {final.get('frames_out')}, expected {int(duration*fps)})")
PY
# The report of an hour is larger than one command-line argument may be: pass it as a file.
"$ONAIR" probe --sync --json "$recording" >"$work/sync.json"
python3 - "$work/sync.json" "$fps" <<'PY'
import json, sys
report, fps = json.load(open(sys.argv[1])), float(sys.argv[2])
offsets = report.get("offsets", [])
last = offsets[-5:]
print("A/V offset (probe --sync, presentation timestamps): last seconds " +
      ", ".join(f"{o['second']} s {o['offset_ms']:+.1f} ms" for o in last) +
      f"; max {report.get('max_av_offset_ms')} ms over {len(offsets)} s (one frame = {1000/fps:.1f} ms)")
print(f"frame codes: {report.get('dropped_frames')} missing, {report.get('repeated_frames')} repeated, "
      f"{report.get('frames')} frames")
PY
# ffmpeg's own decode of the last 20 s: flash frame time minus beep onset time.
start=$(( duration > 25 ? duration - 20 : 0 ))
flashes=$(ffmpeg -v error -copyts -ss "$start" -i "$recording" -map 0:v:0 \
    -vf "signalstats,metadata=mode=print:key=lavfi.signalstats.YAVG:file=-" -f null - \
    | awk '/pts_time/{split($3,a,":");t=a[2]} /YAVG/{split($0,b,"=");v=b[2]+0; if(v>200 && pv<=200) print t; pv=v}')
beeps=$(ffmpeg -v error -copyts -ss "$start" -i "$recording" -map 0:a:0 \
    -af "highpass=f=2000,asetnsamples=n=96:p=0,astats=metadata=1:reset=1,ametadata=mode=print:key=lavfi.astats.Overall.RMS_level:file=-" \
    -f null - | awk '/pts_time/{split($3,a,":");t=a[2]} /RMS_level/{split($0,b,"=");v=b[2]+0; if(v>-20 && pv<=-20) print t; pv=v}')
python3 - "$flashes" "$beeps" <<'PY'
import sys
flashes = [float(x) for x in sys.argv[1].split()]
beeps = [float(x) for x in sys.argv[2].split()]
pairs = []
for f in flashes:
    b = min(beeps, key=lambda b: abs(b - f), default=None)
    if b is not None and abs(b - f) < 0.5: pairs.append((f, (f - b) * 1000))
print("A/V offset (ffmpeg decode, flash frame − beep, includes up to one frame of capture phase): " +
      ", ".join(f"{t:.0f} s {o:+.1f} ms" for t, o in pairs[-5:]))
PY
if [ -s "$work/viewer.json" ]; then
    python3 - "$work/viewer.json" <<'PY'
import json, sys
line = [l for l in open(sys.argv[1]) if l.strip()][-1]
v = json.loads(line)
print(f"viewer: {v.get('frames')} frames, {v.get('decode_errors')} decode errors, {v.get('freezes')} freezes over {v.get('duration')} s")
PY
else
    echo "viewer: no report (see $work/viewer.log)"
fi
echo "work dir: $work"
exit "$status"
