#!/usr/bin/env bash
# Glass-to-decode latency of live HLS on loopback, per `--hls-variant`: `onair serve` (synthetic
# source, real time, a wall-clock code in every frame) and `onair play --measure-latency` reading
# each frame's code at decode (p50/p95/max):
#   lowlatency  the specification client (Tests/Tools/llhls_client.py --relay) follows the live edge
#               the way the specification tells a client to — PART-HOLD-BACK from the end, each next
#               part by blocking reload — and pipes init section and parts into `onair play pipe:0`;
#   lowlatency-classic, fmp4, mpegts  `onair play http://…/live.m3u8`: libavformat's HLS reader,
#               which knows no parts and starts three segments from the end, as classic players do.
# Then how soon a blocking reload for the next part is answered once the part is published (the
# specification client's --gaps: the answer's arrival against the part file's writing, which the
# writer does just before it publishes; issue 48 asks for ≤ 20 ms p95), on the lowlatency server.
#
#   bench/llhls_latency.sh                                  # 20 s each, 1280x720 30 fps, --hls-time 1
#   SECONDS_EACH=30 HLS_TIME=2 SIZE=640x360 bench/llhls_latency.sh
#   ONAIR=.build/release/onair bench/llhls_latency.sh       # use an existing build
#   PYTHON=/opt/onair-venv/bin/python3 bench/llhls_latency.sh   # an interpreter with PyPI's m3u8
#   BROWSER=only bench/llhls_latency.sh                     # only the preview page in Chromium (last, otherwise)
set -euo pipefail
cd "$(dirname "$0")/.."
each=${SECONDS_EACH:-20}
size=${SIZE:-1280x720}
hls_time=${HLS_TIME:-1}
part=${PART:-0.2}
python=${PYTHON:-}
if [ -z "$python" ]; then
    python=/opt/onair-venv/bin/python3
    [ -x "$python" ] || python=python3
fi
. bench/loopback.sh
bench_workspace

report() {  # report NAME JSON
    python3 - "$1" "$2" <<'PY'
import json, sys
name, path = sys.argv[1], sys.argv[2]
try:
    report = json.loads(open(path).read().strip().splitlines()[-1])
    l = report["latency_ms"]
    print(f"{name:19s} p50 {l['p50']:7.1f} ms   p95 {l['p95']:7.1f} ms   max {l['max']:7.1f} ms"
          f"   ({l['samples']} frames, {report.get('decode_errors', '-')} decode errors)")
except Exception as error:
    print(f"{name:19s} no measurement ({error})")
PY
}

serve() {  # serve VARIANT: starts onair serve, sets port and server
    port=$(free_port tcp)
    mkdir -p "$work/tmp-$1"
    TMPDIR="$work/tmp-$1" "$ONAIR" serve --listen "127.0.0.1:$port" --size "$size" --fps 30 --preset veryfast --bitrate 2.5M \
        --hls-variant "$1" --hls-time "$hls_time" --hls-part-duration "$part" --duration $((3 * each + 40)) \
        2>"$work/serve-$1.log" &
    server=$!
    pids+=("$server")
    wait_for_port "$port" || { echo "onair serve did not start (see $work/serve-$1.log)" >&2; exit 1; }
    # Past the encoder's start and a full window of segments.
    for _ in $(seq 100); do
        curl -s -m 2 "http://127.0.0.1:$port/live.m3u8" | grep -q "segment_3\." && break
        sleep 0.2
    done
}

play() {  # play NAME URL
    "$ONAIR" play --no-display --measure-latency --json --duration "$each" --timeout 20 "$2" >"$work/$1.json" 2>"$work/$1.log" || true
}

# The preview page in headless Chromium (Tests/Tools/preview_browser.py, which starts the server):
# /?via=llhls (its own LL-HLS client over MSE) and /?via=mse (/live.mp4) of the same lowlatency
# server, glass-to-decode from the frame codes the page reads in what it decodes.
browser() {
    [ -x /usr/bin/chromium ] && /usr/bin/python3 -c "import selenium" 2>/dev/null || { echo "preview page: no chromium/selenium"; return; }
    for via in llhls mse; do
        local bport command
        bport=$(free_port tcp)
        command=$(python3 -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$ONAIR" serve --listen "127.0.0.1:$bport" \
            --size "$size" --fps 30 --preset veryfast --bitrate 2.5M --hls-variant lowlatency --hls-time "$hls_time" \
            --hls-part-duration "$part")
        /usr/bin/python3 Tests/Tools/preview_browser.py check --url "http://127.0.0.1:$bport/?via=$via" --server-command "$command" \
            --measure "$each" --tries 1 --screenshot "$work/page-$via.png" >"$work/browser-$via.json" 2>"$work/browser-$via.log" || true
        python3 - "$via" "$work/browser-$via.json" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[2]))
    l, p = r["latency_ms"], r["playback"]
    print(f"page ?via={sys.argv[1]:6s}   p50 {l['p50']:7.1f} ms   p95 {l['p95']:7.1f} ms   max {l['max']:7.1f} ms"
          f"   ({l['count']} codes; {p['fps']} fps, {p['dropped_percent']} % dropped, {p['connections']} connections)")
except Exception as error:
    print(f"page ?via={sys.argv[1]}: no measurement ({error})")
PY
    done
}

echo "glass-to-decode on loopback, $size 30 fps, --hls-time $hls_time, parts of $part s, $each s each:"
if [ "${BROWSER:-}" = only ]; then
    browser
    exit 0
fi
serve lowlatency
"$python" Tests/Tools/llhls_client.py --url "http://127.0.0.1:$port/" --relay $((each + 5)) 2>"$work/relay.log" |
    "$ONAIR" play --no-display --measure-latency --json --duration "$each" --timeout 20 pipe:0 >"$work/lowlatency.json" \
        2>"$work/lowlatency.log" || true
report lowlatency "$work/lowlatency.json"
play lowlatency-classic "http://127.0.0.1:$port/live.m3u8"
report lowlatency-classic "$work/lowlatency-classic.json"
hls_dir=$(ls -d "$work/tmp-lowlatency"/onair-serve-* | head -1)
"$python" Tests/Tools/llhls_client.py --url "http://127.0.0.1:$port/" --gaps "$hls_dir" --seconds "$each" >"$work/gaps.json" \
    2>"$work/gaps.log" || true
python3 - "$work/gaps.json" <<'PY'
import json, sys
try:
    g = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
    print(f"blocking reload answered after the part's publication: p50 {g['p50_ms']:.1f} ms   p95 {g['p95_ms']:.1f} ms"
          f"   max {g['max_ms']:.1f} ms   ({g['held']} held reloads, {g['not_held']} not held, failures {g['failures']})")
    print(f"  (against the part files' mtime, which read up to {g['mtime_lead_ms']:.1f} ms after the moment of writing here:"
          f" the true p95 is at most {g['p95_ms'] + g['mtime_lead_ms']:.1f} ms)")
except Exception as error:
    print(f"blocking reload gaps: no measurement ({error})")
PY
kill "$server" 2>/dev/null || true
for variant in fmp4 mpegts; do
    serve "$variant"
    play "$variant" "http://127.0.0.1:$port/live.m3u8"
    report "$variant" "$work/$variant.json"
    kill "$server" 2>/dev/null || true
done
browser
