#!/usr/bin/env bash
# Recording soak: `onair serve` of the synthetic source at 720p30 recording in 1-minute segments
# with retention by size, for a long time (default 1 h), with the sub stream when the binary has
# one (`--sub-size 640x360 --sub-fps 5`). Beside the recording, 10,000 empty segment files of a
# week a month ago, named by the same template, for the listing. Prints, for the process: resident
# memory and open file descriptors after warm-up and at the end, its CPU, then the segments on
# disk against the size limit, the deletions logged, and the time `/list` takes for one hour among
# the 10,000 files (curl's total time, after warm-up, before retention reaches those files: they
# are the oldest). The figures are absolute (no peer records and serves like this), but for the
# CPU of the recording and of the sub stream: after the soak, the same serve runs BASELINE
# seconds (default 60) without the recording, and again without the sub stream, and the
# differences are printed (threads are not named apart, so the split comes from these runs).
#
#   bench/recording_soak.sh                # 1 h
#   bench/recording_soak.sh 300            # 5 min
#   ONAIR=path/to/onair MAX_SIZE=100M BASELINE=60 SIZE=1280x720 FPS=30 bench/recording_soak.sh 600
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-3600}
size=${SIZE:-1280x720}
fps=${FPS:-30}
max_size=${MAX_SIZE:-100M}
baseline=${BASELINE:-60}
if [ -z "${ONAIR:-}" ]; then
    ONAIR=$(bash scripts/build.sh)
fi
work=$(mktemp -d /tmp/onair-recsoak.XXXXXX)
server=
cleanup() { [ -z "$server" ] || kill "$server" 2>/dev/null || true; }
trap cleanup EXIT
. bench/loopback.sh
port=$(free_port tcp)
template="$work/rec/%path/%Y-%m-%d/%H-%M-%S-%f"

# 10,000 one-minute segments of a week, a month ago, as empty files in day folders (local time,
# as the template writes names).
python3 - "$work/rec/live" <<'PY'
import os, sys, time
root, base = sys.argv[1], time.time() - 30 * 86400
for i in range(10000):
    t = base + 60 * i
    folder = os.path.join(root, time.strftime("%Y-%m-%d", time.localtime(t)))
    os.makedirs(folder, exist_ok=True)
    open(os.path.join(folder, time.strftime("%H-%M-%S", time.localtime(t)) + "-000000.mp4"), "w").close()
PY
listing_from=$(python3 -c "import time; print(time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(time.time() - 27 * 86400)))")
listing_to=$(python3 -c "import time; print(time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(time.time() - 27 * 86400 + 3600)))")

# (grep reads the whole help: with -q it would stop at the match, the tool would get SIGPIPE and
# pipefail would count the pipeline as failed.)
sub=()
if "$ONAIR" serve --help 2>&1 | grep -- '--sub-size' >/dev/null; then sub=(--sub-size 640x360 --sub-fps 5); fi
echo "recording soak: ${duration} s at ${size} ${fps} fps${sub:+ + sub stream ${sub[*]}}, 1-minute segments," \
    "--record-max-size ${max_size} (work dir $work)"
"$ONAIR" serve --listen "127.0.0.1:$port" --size "$size" --fps "$fps" --duration "$duration" "${sub[@]}" \
    --record-path "$template" --record-segment-duration 1m --record-max-size "$max_size" \
    --stats-json "$work/stats.jsonl" 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/stats.json" && break
    sleep 0.2
done

# figures PID → "rss_kb fds cpu_ticks uptime_s"
figures() {
    local rss fds ticks now
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$1/status")
    fds=$(find "/proc/$1/fd" -mindepth 1 -maxdepth 1 | wc -l)
    ticks=$(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat")
    now=$(awk '{print $1}' /proc/uptime)
    echo "$rss $fds $ticks $now"
}
hz=$(getconf CLK_TCK)
# cpu T0 T1 U0 U1 → percent of one core
cpu() { awk -v t0="$1" -v t1="$2" -v u0="$3" -v u1="$4" -v hz="$hz" 'BEGIN { printf "%.1f", (t1-t0)/hz/(u1-u0)*100 }'; }

warm=$(( duration / 10 < 30 ? (duration > 60 ? 30 : duration / 4) : duration / 10 ))
sleep "$warm"
read -r rss0 fds0 ticks0 up0 < <(figures "$server")
# /list for one hour among the 10,000 files, before retention reaches them (they are the oldest).
list_url="http://127.0.0.1:$port/list?path=live&start=$listing_from&end=$listing_to"
list_status=$(curl -s -o "$work/list.json" -w '%{http_code}' "$list_url")
list_times=$(for _ in $(seq 10); do curl -s -o /dev/null -w '%{time_total}\n' "$list_url"; done | sort -n)
list_entries=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))))" "$work/list.json" 2>/dev/null || echo "?")
sleep $(( duration - warm - 6 > 0 ? duration - warm - 6 : 1 ))
read -r rss1 fds1 ticks1 up1 < <(figures "$server")
status=0
wait "$server" || status=$?
server=

# The same serve for BASELINE seconds without the recording, then without the sub stream either:
# CPU from 10 s in to 2 s before the end.
baseline_cpu() {
    "$ONAIR" serve --listen "127.0.0.1:$port" --size "$size" --fps "$fps" --duration "$baseline" "$@" \
        2>"$work/baseline.log" &
    server=$!
    sleep 10
    local ta ua tb ub
    read -r _ _ ta ua < <(figures "$server")
    sleep $(( baseline - 12 > 1 ? baseline - 12 : 1 ))
    read -r _ _ tb ub < <(figures "$server")
    wait "$server" || true
    server=
    cpu "$ta" "$tb" "$ua" "$ub"
}
without_recording=$(baseline_cpu "${sub[@]}")
without_sub=
[ ${#sub[@]} -eq 0 ] || without_sub=$(baseline_cpu)

echo "serve exited with status $status"
awk -v r0="$rss0" -v r1="$rss1" -v w="$warm" -v u0="$up0" -v u1="$up1" 'BEGIN {
    printf "resident memory: %.1f MB at %d s → %.1f MB %.0f s later (%+.2f %%)\n", r0/1024, w, r1/1024, u1-u0, (r1-r0)/r0*100 }'
echo "open file descriptors: $fds0 at ${warm} s → $fds1 at the end"
soak_cpu=$(cpu "$ticks0" "$ticks1" "$up0" "$up1")
echo "CPU of the process between the two readings: $soak_cpu % of one core"
echo "  the same serve without the recording (${baseline} s): $without_recording % → recording" \
    "$(awk -v a="$soak_cpu" -v b="$without_recording" 'BEGIN { printf "%+.1f", a - b }') % of one core"
[ -z "$without_sub" ] || echo "  and without the sub stream either: $without_sub % → sub stream" \
    "$(awk -v a="$without_recording" -v b="$without_sub" 'BEGIN { printf "%+.1f", a - b }') % of one core"
segments=$(find "$work/rec" -type f -size +0 | wc -l)
bytes=$(find "$work/rec" -type f -size +0 -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
empty=$(find "$work/rec" -type f -size 0 | wc -l)
echo "segments on disk: $segments, $(awk -v b="$bytes" 'BEGIN { printf "%.1f MB", b/1e6 }') (limit $max_size);" \
    "$empty of the 10,000 empty files left; deletions logged: $(grep -c 'recording: deleted' "$work/serve.log" || true)"
echo "/list of one hour among 10,000 segment files: status $list_status, $list_entries span(s)," \
    "$(echo "$list_times" | awk '{ a[NR] = $1 * 1000 } END { printf "median %.1f ms (%.1f–%.1f ms) over %d requests", a[int((NR + 1) / 2)], a[1], a[NR], NR }')"
echo "work dir: $work"
exit "$status"
