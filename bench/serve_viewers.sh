#!/usr/bin/env bash
# `onair serve` with many viewers, on loopback: a 1280x720 30 fps 2.5 Mb/s synthetic stream and
# 1, 8, 32, 64 viewers of /live.ts (curl to /dev/null, so viewers cost the server only sending),
# then 1, 16, 32 WHEP (WebRTC) viewers (Tests/Tools/whep_viewers.py: aiortc, eight viewers a process,
# counting the frames they reassemble without decoding them).
# One server per count: after a warm-up, CPU (user+system, % of one core) and resident memory of
# the `onair serve` process over MEASURE seconds; for HTTP, from /stats.json, the time each viewer
# waited from its request to the first keyframe handed to its socket (mean and max); for WebRTC,
# the frames each viewer got against the encoder's and, per thread name, where the server's CPU went.
# Prints the ratios the issues set as targets: CPU at 64 / CPU at 1 HTTP viewer (≤ 1.3), memory growth
# per HTTP viewer (≤ 1 MB), CPU at 32 / CPU at 1 WebRTC viewer (≤ 1.5).
# A ratio over viewers that were not there means nothing: the bench exits non-zero, saying why,
# when an HTTP count's viewers are not all on /stats.json, when a WebRTC count's viewers are not all
# live, or when a WebRTC viewer got less than MIN_SHARE % (default 50) of the encoder's frames. The
# WebRTC viewers run under /opt/onair-venv's python (scripts/setup.sh puts aiortc there), or
# PEER_PYTHON; one without aiortc stops the bench before it starts.
#
#   bench/serve_viewers.sh                              # 10 s per count, preset veryfast
#   MEASURE=20 PRESET=ultrafast COUNTS="1 64" WEBRTC_COUNTS="1 32" bench/serve_viewers.sh
#   COUNTS= bench/serve_viewers.sh                      # WebRTC only (WEBRTC_COUNTS= : HTTP only)
#   ONAIR=.build/release/onair bench/serve_viewers.sh   # use an existing build
set -euo pipefail
cd "$(dirname "$0")/.."
measure=${MEASURE:-10}
preset=${PRESET:-veryfast}
counts=${COUNTS-1 8 32 64}
webrtc_counts=${WEBRTC_COUNTS-1 16 32}
min_share=${MIN_SHARE:-50}
failures=()
if [ -n "$webrtc_counts" ]; then
    peer_python=${PEER_PYTHON:-/opt/onair-venv/bin/python3}
    if ! "$peer_python" -c "import aiortc" 2>/dev/null; then
        echo "serve_viewers: $peer_python cannot import aiortc (run scripts/setup.sh, or set PEER_PYTHON)" >&2
        exit 2
    fi
fi
. bench/loopback.sh
bench_workspace
ticks=$(getconf CLK_TCK)

rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }

# thread_ticks PID: "tid name ticks" (user + system) for every thread of PID now, read at once.
thread_ticks() {
    python3 - "$1" <<'PY'
import glob, sys
for path in glob.glob("/proc/%s/task/*/stat" % sys.argv[1]):
    try:
        text = open(path).read()
    except OSError:
        continue
    name = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    print(text.split()[0], name.replace(" ", "_"), int(fields[11]) + int(fields[12]))
PY
}

# encoded_frames: the encoder's frames so far, from /stats.json (0 when it does not answer).
encoded_frames() {
    curl -s -m 10 "http://127.0.0.1:$port/stats.json" | python3 -c "
import json, sys
try: print(json.load(sys.stdin)['encoder']['frames_out'])
except Exception: print(0)"
}

# start_server NAME [FLAGS…]: an `onair serve` on a free port (sets port, server), waited for.
start_server() {
    local name=$1
    shift
    port=$(free_port tcp)
    "$ONAIR" serve --listen "127.0.0.1:$port" --size 1280x720 --fps 30 --bitrate 2.5M --preset "$preset" \
        --max-viewers 100 --duration $((measure + 30)) "$@" 2>"$work/serve-$name.log" &
    server=$!
    pids+=("$server")
    for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
    sleep 3
}

stop_server() {
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
}

declare -A cpu rss wcpu wrss
if [ -n "$counts" ]; then
    printf '%-8s %10s %10s %14s %14s\n' viewers "cpu %" "rss MB" "keyframe mean" "keyframe max"
fi
for n in $counts; do
    start_server "$n"
    viewers=()
    for _ in $(seq "$n"); do
        curl -s -o /dev/null -m $((measure + 12)) "http://127.0.0.1:$port/live.ts" &
        viewers+=("$!")
        pids+=("$!")
    done
    sleep 4
    before=$(cpu_ticks "$server")
    sleep "$measure"
    after=$(cpu_ticks "$server")
    cpu[$n]=$(python3 -c "print(round(($after - $before) / $ticks / $measure * 100, 1))")
    rss[$n]=$(python3 -c "print(round($(rss_kb "$server") / 1024, 1))")
    keyframes=$(curl -s "http://127.0.0.1:$port/stats.json" | python3 -c "
import json, sys
v = [x['first_keyframe_seconds'] for x in json.load(sys.stdin)['viewers'] if x.get('first_keyframe_seconds') is not None]
print('%.3f %.3f' % (sum(v) / len(v), max(v)) if v else '- -')")
    printf '%-8s %10s %10s %12s s %12s s\n' "$n" "${cpu[$n]}" "${rss[$n]}" $keyframes
    seen=$(curl -s -m 10 "http://127.0.0.1:$port/stats.json" | python3 -c "
import json, sys
try: print(len(json.load(sys.stdin)['viewers']))
except Exception: print(0)")
    [ "$seen" -ge "$n" ] || failures+=("http $n: only $seen of $n viewers connected")
    kill "${viewers[@]}" 2>/dev/null || true
    stop_server
done
if [ -n "$counts" ]; then
    first=$(echo $counts | awk '{print $1}')
    last=$(echo $counts | awk '{print $NF}')
    python3 -c "
c1, cn, r1, rn, n1, nn = ${cpu[$first]}, ${cpu[$last]}, ${rss[$first]}, ${rss[$last]}, $first, $last
print('cpu at %d / cpu at %d: %.2f (target <= 1.3)' % (nn, n1, cn / c1 if c1 else float('nan')))
print('memory per added viewer: %.2f MB (target <= 1)' % ((rn - r1) / (nn - n1) if nn != n1 else 0))
"
fi

if [ -n "$webrtc_counts" ]; then
    printf '\n%-8s %10s %10s %10s %14s  %s\n' webrtc "cpu %" "rss MB" "live" "frames min %" "cpu by thread (% of one core)"
fi
for n in $webrtc_counts; do
    start_server "webrtc-$n" --webrtc --duration $((measure + 90))
    clients=()
    left=$n
    group=0
    while [ "$left" -gt 0 ]; do
        size=$((left < 8 ? left : 8))
        "$peer_python" Tests/Tools/whep_viewers.py --url "http://127.0.0.1:$port/whep" --count "$size" --decode 0 \
            --seconds $((measure + 34)) --stagger 0.1 >"$work/whep-$n-$group.json" 2>"$work/whep-$n-$group.log" &
        clients+=("$!")
        pids+=("$!")
        left=$((left - size))
        group=$((group + 1))
    done
    # Until every viewer is live (a loaded machine takes a while to start 32), 30 s at most.
    for _ in $(seq 30); do
        sleep 1
        live=$(curl -s -m 10 "http://127.0.0.1:$port/stats.json" | python3 -c "
import json, sys
try: print(sum(1 for v in json.load(sys.stdin).get('webrtc_viewers', []) if v['live']))
except Exception: print(0)")
        [ "$live" -ge "$n" ] && break
    done
    sleep 2
    frames_before=$(encoded_frames)
    thread_ticks "$server" >"$work/threads-before"
    before=$(cpu_ticks "$server")
    sleep "$measure"
    after=$(cpu_ticks "$server")
    thread_ticks "$server" >"$work/threads-after"
    frames_after=$(encoded_frames)
    wcpu[$n]=$(python3 -c "print(round(($after - $before) / $ticks / $measure * 100, 1))")
    wrss[$n]=$(python3 -c "print(round($(rss_kb "$server") / 1024, 1))")
    threads=$(python3 - "$work/threads-before" "$work/threads-after" "$ticks" "$measure" <<'PY'
import re, sys
def read(path):
    out = {}
    for line in open(path):
        tid, name, ticks = line.split()
        out[tid] = (name, int(ticks))
    return out
before, after = read(sys.argv[1]), read(sys.argv[2])
rate, seconds = float(sys.argv[3]), float(sys.argv[4])
groups = {}
for tid, (name, ticks) in after.items():
    used = ticks - before.get(tid, (name, 0))[1]
    # One thread per viewer or per element instance: grouped by name less its numbers/ids.
    # ("onair": the viewers' feeding threads; webrtc:pc, webrtc:ice, video:src, rtpsession-rtcp: GStreamer's.)
    key = re.sub(r"\d+", "#", name)
    groups[key] = groups.get(key, 0) + used
top = sorted(groups.items(), key=lambda kv: -kv[1])[:7]
print(" ".join("%s=%.1f" % (k, v / rate / seconds * 100) for k, v in top if v > 0))
PY
)
    for pid in "${clients[@]}"; do wait "$pid" 2>/dev/null || true; done
    share=$(cat "$work"/whep-"$n"-*.json | python3 -c "
import json, sys
rate = ($frames_after - $frames_before) / ($measure + 0.0) if $frames_after > $frames_before else 30
shares = []
for line in sys.stdin:
    for v in json.loads(line)['viewers']:
        span = v.get('span_seconds') or 0
        shares.append(100 * v.get('video_frames', 0) / max(1, rate * span))
print('%.1f' % min(shares) if len(shares) == $n else 'only %d of $n' % len(shares))" 2>/dev/null || echo "-")
    printf '%-8s %10s %10s %10s %14s  %s\n' "$n" "${wcpu[$n]}" "${wrss[$n]}" "$live" "$share" "$threads"
    [ "$live" -ge "$n" ] || failures+=("webrtc $n: only $live of $n viewers live")
    if ! python3 -c "import sys; sys.exit(0 if float('$share') >= $min_share else 1)" 2>/dev/null; then
        failures+=("webrtc $n: the worst viewer's frames: $share (needs >= $min_share %)")
    fi
    stop_server
done
if [ -n "$webrtc_counts" ]; then
    first=$(echo $webrtc_counts | awk '{print $1}')
    last=$(echo $webrtc_counts | awk '{print $NF}')
    python3 -c "
c1, cn, n1, nn = ${wcpu[$first]}, ${wcpu[$last]}, $first, $last
print('webrtc cpu at %d / cpu at %d: %.2f (target <= 1.5)' % (nn, n1, cn / c1 if c1 else float('nan')))
"
fi
echo "load: $(uptime)"
if [ ${#failures[@]} -gt 0 ]; then
    printf 'serve_viewers: %s\n' "${failures[@]}" >&2
    echo "serve_viewers: the ratios above are not figures of the counts asked for" >&2
    exit 1
fi
