#!/usr/bin/env bash
# `onair serve` with many viewers, on loopback: a 1280x720 30 fps 2.5 Mb/s synthetic stream and
# 1, 8, 32, 64 viewers of /live.ts (curl to /dev/null, so viewers cost the server only sending).
# One server per count: after a warm-up, CPU (user+system, % of one core) and resident memory of
# the `onair serve` process over MEASURE seconds; from /stats.json, the time each viewer waited
# from its request to the first keyframe handed to its socket (mean and max). Prints the ratios
# the issue sets as targets: CPU at 64 / CPU at 1 (≤ 1.3) and memory growth per viewer (≤ 1 MB).
#
#   bench/serve_viewers.sh                              # 10 s per count, preset veryfast
#   MEASURE=20 PRESET=ultrafast COUNTS="1 64" bench/serve_viewers.sh
#   ONAIR=.build/release/onair bench/serve_viewers.sh   # use an existing build
set -euo pipefail
cd "$(dirname "$0")/.."
measure=${MEASURE:-10}
preset=${PRESET:-veryfast}
counts=${COUNTS:-1 8 32 64}
. bench/loopback.sh
bench_workspace
ticks=$(getconf CLK_TCK)

rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }

printf '%-8s %10s %10s %14s %14s\n' viewers "cpu %" "rss MB" "keyframe mean" "keyframe max"
declare -A cpu rss
for n in $counts; do
    port=$(free_port tcp)
    "$ONAIR" serve --listen "127.0.0.1:$port" --size 1280x720 --fps 30 --bitrate 2.5M --preset "$preset" \
        --max-viewers 100 --duration $((measure + 20)) 2>"$work/serve-$n.log" &
    server=$!
    pids+=("$server")
    for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
    sleep 3
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
    kill "${viewers[@]}" 2>/dev/null || true
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
done
first=$(echo $counts | awk '{print $1}')
last=$(echo $counts | awk '{print $NF}')
python3 -c "
c1, cn, r1, rn, n1, nn = ${cpu[$first]}, ${cpu[$last]}, ${rss[$first]}, ${rss[$last]}, $first, $last
print('cpu at %d / cpu at %d: %.2f (target <= 1.3)' % (nn, n1, cn / c1 if c1 else float('nan')))
print('memory per added viewer: %.2f MB (target <= 1)' % ((rn - r1) / (nn - n1) if nn != n1 else 0))
"
echo "load: $(uptime)"
