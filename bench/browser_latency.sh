#!/usr/bin/env bash
# Glass-to-glass latency into the browser preview, on loopback: `onair serve` (synthetic source)
# stamps every frame with the wall clock; headless Chromium (Tests/Tools/preview_browser.py) opens
# the page, which reads the code of every presented frame through a canvas. Per size (320x240 and
# 1280x720, 30 fps) it prints p50/p95/max in ms, the time from opening the page to its first
# frame, and frames dropped; then, as the reference, `onair play --measure-latency` of /live.ts from
# the same server, and the ratio browser p50 / onair play p50. The server's own frame rate is
# printed too: on a loaded machine a slow encode shows there, not in the page.
#
#   bench/browser_latency.sh                          # 20 s per size, preset veryfast
#   SECONDS_EACH=30 PRESET=ultrafast bench/browser_latency.sh
#   ONAIR=.build/release/onair bench/browser_latency.sh    # use an existing build
# Targets: p50 <= 300 ms, first frame <= 1500 ms, dropped < 5 % at 720p30.
set -euo pipefail
cd "$(dirname "$0")/.."
each=${SECONDS_EACH:-20}
preset=${PRESET:-veryfast}
if [ -z "${ONAIR:-}" ]; then
    ONAIR=$(bash scripts/build.sh)
fi
work=$(mktemp -d)
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

. bench/loopback.sh

echo "browser preview glass-to-glass on loopback, ${each} s per size, preset $preset; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for case in "320x240 600k" "1280x720 2.5M"; do
    read -r size bitrate <<<"$case"
    port=$(free_port)
    "$ONAIR" serve --listen "127.0.0.1:$port" --size "$size" --fps 30 --bitrate "$bitrate" \
        --preset "$preset" 2>"$work/serve-$size.log" &
    server=$!
    wait_for_port "$port" 100 || true
    sleep 1   # past the encoder's start
    /usr/bin/python3 Tests/Tools/preview_browser.py bench --url "http://127.0.0.1:$port/" --seconds "$each" \
        >"$work/browser-$size.json" 2>"$work/browser-$size.log" || true
    python3 -c "import sys,urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())" \
        "http://127.0.0.1:$port/stats.json" >"$work/stats-$size.json" 2>/dev/null || true
    "$ONAIR" play --measure-latency --json --duration 10 --timeout 20 "http://127.0.0.1:$port/live.ts" \
        >"$work/play-$size.json" 2>"$work/play-$size.log" || true
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
    python3 - "$size" "$work/browser-$size.json" "$work/play-$size.json" "$work/stats-$size.json" <<'PY'
import json, sys
size, browser_path, play_path, stats_path = sys.argv[1:5]
try:
    encoder = json.load(open(stats_path))["encoder"]
    print(f"{size:9s} serve    encoded {encoder['fps_out']:5.1f} fps, {encoder['dropped_frames']} frames dropped before encoding,"
          f" encode {encoder['encode_latency_ms']:5.1f} ms")
except Exception as error:
    print(f"{size:9s} serve    no statistics ({error})")
try:
    browser = json.load(open(browser_path))
    l, p = browser["latency_ms"], browser["playback"]
    print(f"{size:9s} browser  p50 {l['p50']:6.1f} ms  p95 {l['p95']:6.1f} ms  max {l['max']:6.1f} ms  ({l['count']} frames)"
          f"  first frame {browser['first_frame_ms']:6.0f} ms  decoded {p['fps']:5.1f} fps of {p.get('stream_fps', 0):5.1f}  dropped {p['dropped_percent']:4.1f} %"
          f"  (skips to live {p['live_skips']}, buffer trims {browser['snapshot']['trims']})")
except Exception as error:
    print(f"{size:9s} browser  no measurement ({error}; {open(browser_path).read()[:300]})")
    sys.exit(0)
try:
    play = json.load(open(play_path))["latency_ms"]
    print(f"{size:9s} onair play /live.ts  p50 {play['p50']:6.1f} ms  p95 {play['p95']:6.1f} ms"
          f"   browser/onair play p50 ratio {l['p50'] / play['p50']:.2f}")
except Exception as error:
    print(f"{size:9s} onair play  no measurement ({error})")
PY
done
