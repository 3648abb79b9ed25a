#!/usr/bin/env bash
# What HTTP viewers cost `onair serve`: a 1280x720 30 fps 2.5 Mb/s synthetic stream and 1, 64, 256
# curl readers of /live.ts (to /dev/null), on loopback. With BEFORE naming another `onair` (main's
# build), both run side by side in the same run, count by count. For each server and count, after a
# warm-up: CPU of the serve process over MEASURE seconds (user+system, % of one core), its threads
# (/proc/PID/task) and resident memory, and from /stats.json the HTTP viewers connected and the
# fewest bytes one of them got. A run whose readers did not all connect, or where one got less than
# half of the stream, says so and the bench exits non-zero.
# Prints, per server: CPU at N / CPU at 1, threads at N - threads at 1, memory per added viewer
# (issue 45's targets at 256: CPU <= 1.3x, threads <= +4, memory <= 1 MB a viewer); with BEFORE,
# after / before at each count.
#
#   bench/http_viewers.sh                                        # this build, 1 64 256 viewers
#   BEFORE=/tmp/onair-main MEASURE=15 bench/http_viewers.sh      # against main's build
#   TLS=1 COUNTS="1 256" bench/http_viewers.sh                   # HTTPS (self-signed, curl -k)
#   ONAIR=.build/release/onair bench/http_viewers.sh             # use an existing build
set -euo pipefail
cd "$(dirname "$0")/.."
measure=${MEASURE:-10}
preset=${PRESET:-veryfast}
counts=${COUNTS-1 64 256}
. bench/loopback.sh
bench_workspace
ticks=$(getconf CLK_TCK)
scheme=http
curl_tls=()
serve_tls=()
if [ -n "${TLS:-}" ]; then
    scheme=https
    curl_tls=(-k)
    serve_tls=(--tls-self-signed)
fi
most=$(echo $counts | tr ' ' '\n' | sort -n | tail -1)
builds=(after)
declare -A binary=([after]="$ONAIR")
if [ -n "${BEFORE:-}" ]; then
    builds=(before after)
    binary[before]=$BEFORE
fi

rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
threads() { ls "/proc/$1/task" | wc -l; }

# start_server BUILD NAME: that build's `onair serve` on a free port (sets port, server), waited for.
start_server() {
    port=$(free_port tcp)
    "${binary[$1]}" serve --listen "127.0.0.1:$port" --size 1280x720 --fps 30 --bitrate 2.5M --preset "$preset" \
        --max-viewers $((most + 16)) --duration $((measure + 40)) "${serve_tls[@]}" 2>"$work/serve-$2.log" &
    server=$!
    pids+=("$server")
    for _ in $(seq 100); do curl -s "${curl_tls[@]}" -o /dev/null "$scheme://127.0.0.1:$port/" && break; sleep 0.2; done
    sleep 3
}

stop_server() {
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
}

declare -A cpu rss thr viewers least
failed=0
printf '%-7s %8s %8s %8s %8s %9s %14s\n' build viewers "cpu %" threads "rss MB" connected "least MB got"
for n in $counts; do
    for build in "${builds[@]}"; do
        key=$build.$n
        start_server "$build" "$key"
        readers=()
        for _ in $(seq "$n"); do
            curl -s "${curl_tls[@]}" -o /dev/null -m $((measure + 14)) "$scheme://127.0.0.1:$port/live.ts" &
            readers+=("$!")
            pids+=("$!")
        done
        sleep 5
        before=$(cpu_ticks "$server")
        sleep "$measure"
        after=$(cpu_ticks "$server")
        cpu[$key]=$(python3 -c "print(round(($after - $before) / $ticks / $measure * 100, 1))")
        rss[$key]=$(python3 -c "print(round($(rss_kb "$server") / 1024, 1))")
        thr[$key]=$(threads "$server")
        read -r viewers[$key] least[$key] < <(curl -s "${curl_tls[@]}" -m 20 "$scheme://127.0.0.1:$port/stats.json" | python3 -c "
import json, sys
v = [x for x in json.load(sys.stdin)['viewers'] if x.get('transport') == 'http']
print(len(v), min(x['bytes_sent'] for x in v) if v else 0)")
        printf '%-7s %8s %8s %8s %8s %9s %14s\n' "$build" "$n" "${cpu[$key]}" "${thr[$key]}" "${rss[$key]}" \
            "${viewers[$key]}" "$(python3 -c "print(round(${least[$key]} / 1e6, 2))")"
        # Half of 2.5 Mb/s over the warm-up and the measure, at least.
        if [ "${viewers[$key]}" -ne "$n" ] || [ "${least[$key]}" -lt $((2500000 / 8 * (measure + 5) / 2)) ]; then
            echo "  $build with $n: ${viewers[$key]} of $n readers connected, the least got ${least[$key]} bytes" >&2
            failed=1
        fi
        kill "${readers[@]}" 2>/dev/null || true
        wait "${readers[@]}" 2>/dev/null || true
        stop_server
    done
done

first=$(echo $counts | awk '{print $1}')
echo
for build in "${builds[@]}"; do
    for n in $counts; do
        [ "$n" = "$first" ] && continue
        python3 -c "
b, n, n1 = '$build', $n, $first
c1, cn = ${cpu[$build.$first]}, ${cpu[$build.$n]}
t1, tn = ${thr[$build.$first]}, ${thr[$build.$n]}
r1, rn = ${rss[$build.$first]}, ${rss[$build.$n]}
print('%-6s %3d viewers: cpu x%.2f of %d, threads %+d, memory %.2f MB per added viewer' % (
    b, n, cn / c1 if c1 else float('nan'), n1, tn - t1, (rn - r1) / (n - n1)))"
    done
done
if [ -n "${BEFORE:-}" ]; then
    for n in $counts; do
        python3 -c "
n = $n
ca, cb = ${cpu[after.$n]}, ${cpu[before.$n]}
ta, tb = ${thr[after.$n]}, ${thr[before.$n]}
ra, rb = ${rss[after.$n]}, ${rss[before.$n]}
print('after/before %3d viewers: cpu %.2f, threads %d/%d, memory %.2f' % (n, ca / cb if cb else float('nan'), ta, tb, ra / rb if rb else float('nan')))"
    done
fi
if [ "$failed" -ne 0 ]; then
    echo "http_viewers: some readers did not connect or got too little of the stream (above)" >&2
    exit 1
fi
