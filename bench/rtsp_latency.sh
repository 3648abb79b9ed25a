#!/usr/bin/env bash
# RTSP from `onair serve --rtsp-port`, on loopback, 1280x720 30 fps synthetic (real time):
#  1. capture-to-decode latency (p50/p95/max) of `onair play --measure-latency` over RTSP/UDP
#     and RTSP/TCP (interleaved, `…/live?tcp`) from one serve, beside SRT with latency=20000
#     (`onair stream srt://…?mode=listener&latency=20000` → `onair play`, as bench/stream_latency.sh);
#  2. CPU (user+system, % of one core), threads and resident memory of the `onair serve` process
#     with 1, 16 and 64 RTSP clients, half over UDP and half over TCP, each an ffmpeg copying to
#     null; the ratio CPU(64)/CPU(1) (target ≤ 1.3), the threads added (target ≤ 4) and memory per
#     client; and where the CPU goes: % of one core per thread name (digits folded,
#     /proc/PID/task/*/stat) at each count, the names that grow with clients first. A count whose
#     clients are not all on /stats.json makes the bench exit non-zero: a ratio over clients that
#     were not there means nothing.
#
#   bench/rtsp_latency.sh                                  # 10 s each, preset veryfast, 2.5 Mb/s
#   SECONDS_EACH=20 COUNTS="1 64" bench/rtsp_latency.sh
#   ONAIR=.build/release/onair bench/rtsp_latency.sh       # use an existing build
#   PARTS=cpu bench/rtsp_latency.sh                        # only the CPU part (or PARTS=latency)
set -euo pipefail
cd "$(dirname "$0")/.."
each=${SECONDS_EACH:-10}
preset=${PRESET:-veryfast}
bitrate=${BITRATE:-2.5M}
counts=${COUNTS:-1 16 64}
parts=${PARTS:-latency cpu}
. bench/loopback.sh
bench_workspace
ticks=$(getconf CLK_TCK)

thread_ticks() {  # thread_ticks PID: "name ticks" per thread (name with digits as #)
    for stat in /proc/"$1"/task/*/stat; do
        # comm is field 2, in parentheses (may hold spaces); utime, stime are fields 14, 15.
        sed -E 's/^[0-9]+ \((.*)\) [A-Za-z] (.*)$/\1\t\2/' "$stat" 2>/dev/null |
            awk -F'\t' '{ split($2, f, " "); name = $1; gsub(/[0-9]+/, "#", name); gsub(/ /, "_", name); print name, f[11] + f[12] }' ||
            true  # a thread that ended meanwhile
    done
}

thread_report() {  # thread_report BEFORE AFTER N: % of one core per thread name over $each s
    python3 - "$1" "$2" "$3" "$each" "$ticks" <<'PY'
import collections, sys
def load(path):
    totals, counts = collections.Counter(), collections.Counter()
    for line in open(path):
        name, value = line.rsplit(" ", 1)
        totals[name] += int(value)
        counts[name] += 1
    return totals, counts
before, _ = load(sys.argv[1])
after, counts = load(sys.argv[2])
seconds, ticks = float(sys.argv[4]), float(sys.argv[5])
rows = sorted(((after[n] - before.get(n, 0)) / ticks / seconds * 100, n) for n in after)
shown = ", ".join(f"{n} x{counts[n]} {cpu:.1f}" for cpu, n in reversed(rows) if cpu >= 0.2)
print(f"  threads at {sys.argv[3]}: {shown}")
PY
}
encode=(--size 1280x720 --fps 30 --preset "$preset" --bitrate "$bitrate")

report() {  # report NAME JSON
    python3 - "$1" "$2" <<'PY'
import json, sys
name, path = sys.argv[1], sys.argv[2]
try:
    report = json.load(open(path))
    l = report["latency_ms"]
    print(f"{name:9s} p50 {l['p50']:7.1f} ms   p95 {l['p95']:7.1f} ms   max {l['max']:7.1f} ms   ({l['samples']} frames, {report.get('decode_errors', '-')} decode errors)")
except Exception as error:
    print(f"{name:9s} no measurement ({error})")
PY
}

play() {  # play NAME URL: onair play for SECONDS_EACH, in the background (sets player)
    "$ONAIR" play --no-display --measure-latency --json --duration "$each" --timeout 20 "$2" >"$work/$1.json" 2>"$work/$1.play.log" &
    player=$!
    pids+=("$player")
}

if [[ " $parts " == *" latency "* ]]; then
echo "latency (capture to decode), $each s each:"
rtsp_port=$(free_port tcp)
http_port=$(free_port tcp)
"$ONAIR" serve --listen "127.0.0.1:$http_port" --rtsp-port "$rtsp_port" "${encode[@]}" --duration $((2 * each + 12)) \
    2>"$work/serve.log" &
server=$!
pids+=("$server")
wait_for_port "$rtsp_port" 100 || { echo "onair serve did not listen" >&2; tail -5 "$work/serve.log" >&2; exit 1; }
sleep 2
play rtsp-udp "rtsp://127.0.0.1:$rtsp_port/live"
wait "$player" || true
report rtsp-udp "$work/rtsp-udp.json"
play rtsp-tcp "rtsp://127.0.0.1:$rtsp_port/live?tcp"
wait "$player" || true
report rtsp-tcp "$work/rtsp-tcp.json"
wait "$server" || true

srt_port=$(free_port udp)
play srt "srt://127.0.0.1:$srt_port?mode=listener&latency=20000"
sleep 1
"$ONAIR" stream "${encode[@]}" --no-adaptive --duration $((each + 4)) "srt://127.0.0.1:$srt_port?latency=20000" 2>"$work/srt.stream.log" &
streamer=$!
pids+=("$streamer")
wait "$player" || true
wait "$streamer" || true
report srt "$work/srt.json"
echo
fi

[[ " $parts " == *" cpu "* ]] || exit 0
printf '%-8s %10s %14s %8s %8s\n' clients "cpu %" "rtsp viewers" threads "rss MB"
declare -A cpu threads rss
missing=""
for n in $counts; do
    rtsp_port=$(free_port tcp)
    http_port=$(free_port tcp)
    "$ONAIR" serve --listen "127.0.0.1:$http_port" --rtsp-port "$rtsp_port" "${encode[@]}" --max-viewers 100 \
        --duration $((each + 120)) 2>"$work/serve-$n.log" &
    server=$!
    pids+=("$server")
    wait_for_port "$rtsp_port" 100 || { echo "onair serve did not listen" >&2; exit 1; }
    sleep 2
    # The clients outlive the measurement by far (ffmpeg's -t counts media time, which starts up
    # to a GOP early with the keyframe cache, and reading 200+ threads' stat files takes seconds
    # at 64 clients) and are stopped after it, so every one is there from the first reading to
    # the count at the end.
    clients=()
    for i in $(seq "$n"); do
        transport=$([ $((i % 2)) -eq 0 ] && echo tcp || echo udp)
        ffmpeg -hide_banner -nostdin -v error -rtsp_transport "$transport" -i "rtsp://127.0.0.1:$rtsp_port/live" \
            -t $((each + 60)) -c copy -copyinkf -f null - 2>>"$work/clients-$n.log" &
        pids+=("$!")
        clients+=("$!")
    done
    sleep 8
    thread_ticks "$server" >"$work/threads-before-$n"
    before=$(cpu_ticks "$server")
    sleep "$each"
    after=$(cpu_ticks "$server")
    viewers=$(curl -s "http://127.0.0.1:$http_port/stats.json" | python3 -c 'import json,sys; print(sum(1 for v in json.load(sys.stdin)["viewers"] if v["format"] == "es"))' || echo "?")
    thread_ticks "$server" >"$work/threads-after-$n"
    threads[$n]=$(ls /proc/"$server"/task | wc -l)
    rss[$n]=$(awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' /proc/"$server"/status)
    kill "${clients[@]}" 2>/dev/null || true
    cpu[$n]=$(python3 -c "print(round(($after - $before) / $ticks / $each * 100, 1))")
    printf '%-8s %10s %14s %8s %8s\n' "$n" "${cpu[$n]}" "$viewers" "${threads[$n]}" "${rss[$n]}"
    [ "$viewers" = "$n" ] || missing="$missing $n (only $viewers on /stats.json)"
    thread_report "$work/threads-before-$n" "$work/threads-after-$n" "$n"
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    sleep 2
done
first=${counts%% *}
last=${counts##* }
python3 -c "print(f'cpu at $last / cpu at $first: {${cpu[$last]} / max(${cpu[$first]}, 0.1):.2f} (target ≤ 1.3)')"
echo "threads at $last - threads at $first: $(( ${threads[$last]} - ${threads[$first]} )) (target ≤ 4)"
python3 -c "print(f'memory per client: {(${rss[$last]} - ${rss[$first]}) / max($last - $first, 1):.2f} MB')"
if [ -n "$missing" ]; then
    echo "not every client played at:$missing" >&2
    exit 1
fi
