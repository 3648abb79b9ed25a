#!/usr/bin/env bash
# Adaptive bitrate under kernel traffic shaping (tc tbf on a veth pair between two network
# namespaces; needs root). For each protocol (RTMP through nginx-rtmp, SRT caller -> listener
# with latency=120000) and each link profile (50 -> 1 -> 50 Mbit/s and 50 -> 0.5 -> 3 Mbit/s),
# `onair stream --bitrate 2500k --min-bitrate 200k` publishes 640x360 30 fps and
# `onair play --measure-latency` watches. Prints per run: time to the first step down, link use
# while constrained (bytes through the shaper / its rate), time back to the configured rate
# after the link returns, receiver delay p95/max, freezes, decode errors, reconnects.
# Targets (issue 14): step down <= 3 s, use >= 75 %, back <= 6 s, delay max <= 1.5 s,
# no reconnect, no decode errors over SRT.
#
#   bench/abr_shaping.sh                       # both protocols, both profiles, this tree's onair
#   ONAIR=/tmp/abr-before/onair bench/abr_shaping.sh   # the same with another build ("before")
#   PROTOCOLS=srt PROFILES="50:10,1:15,50:15" RUNS=2 bench/abr_shaping.sh
#   SRT_LATENCY=500000 PROTOCOLS=srt bench/abr_shaping.sh   # SRT latency in µs (default 120000)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "bench: needs root (network namespaces, tc)" >&2; exit 1; }
if [ -z "${ONAIR:-}" ]; then
    ONAIR=$(bash scripts/build.sh)
fi
protocols=${PROTOCOLS:-"rtmp srt"}
profiles=${PROFILES:-"50:10,1:15,50:15 50:10,0.5:15,3:15"}
runs=${RUNS:-1}
echo "onair: $ONAIR; load: $(uptime | sed 's/.*load average: //')"
printf '%-5s %-18s %8s %7s %8s %9s %9s %7s %7s %6s %6s\n' protocol profile step_down use back_s delay_p95 delay_max freezes dec_err reconn skips
for protocol in $protocols; do
    for profile in $profiles; do
        for _ in $(seq "$runs"); do
            python3 Tests/Tools/abr_shaping.py --onair "$ONAIR" --protocol "$protocol" --profile "$profile" \
                --srt-latency "${SRT_LATENCY:-120000}" \
                | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
def f(v, fmt="%.2f"):
    return "-" if v is None else (fmt % v if isinstance(v, float) else str(v))
print("%-5s %-18s %8s %7s %8s %9s %9s %7s %7s %6s %6s" % (r["protocol"], r["profile"], f(r["first_step_down_s"]),
      f(r["link_use_constrained"]), f(r["back_to_configured_s"]), f(r["receiver_delay_p95_ms"], "%.0f"),
      f(r["receiver_delay_max_ms"], "%.0f"), f(r["freezes"]), f(r["decode_errors"]), f(r["reconnects"]), f(r["backlog_skips"])))'
        done
    done
done
