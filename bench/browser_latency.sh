#!/usr/bin/env bash
# Glass-to-glass latency into the browser preview, on loopback: `onair serve --webrtc` (synthetic
# source) stamps every frame with the wall clock; headless Chromium (Tests/Tools/preview_browser.py)
# opens the page, which reads the code of every presented frame through a canvas. Per size (320x240
# and 1280x720, 30 fps), one server, one browser after the other: the page over WebRTC (`/`, WHEP)
# and over MSE (`/?via=mse`, fragmented MP4), each with p50/p95/max in ms, the time from opening the
# page to its first frame, and frames dropped; then, as the reference, `onair play
# --measure-latency` of /live.ts from the same server, and the ratio browser p50 / onair play p50.
# The server's own frame rate is printed too: on a loaded machine a slow encode shows there, not in
# the page.
#
#   bench/browser_latency.sh                          # 20 s per size, preset veryfast
#   SECONDS_EACH=30 PRESET=ultrafast bench/browser_latency.sh
#   ONAIR=.build/release/onair bench/browser_latency.sh    # use an existing build
# Targets at 720p30: WebRTC p50 <= 80 ms, first frame <= 1000 ms; MSE p50 <= 300 ms, first frame
# <= 1500 ms; dropped < 5 %.
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

echo "browser preview (WebRTC and MSE) glass-to-glass on loopback, ${each} s per size, preset $preset; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for case in "320x240 600k" "1280x720 2.5M"; do
    read -r size bitrate <<<"$case"
    port=$(free_port)
    "$ONAIR" serve --listen "127.0.0.1:$port" --webrtc --size "$size" --fps 30 --bitrate "$bitrate" \
        --preset "$preset" 2>"$work/serve-$size.log" &
    server=$!
    wait_for_port "$port" 100 || true
    sleep 1   # past the encoder's start
    for via in webrtc mse; do
        query=""
        [ "$via" = mse ] && query="?via=mse"
        nice -n 5 /usr/bin/python3 Tests/Tools/preview_browser.py bench --url "http://127.0.0.1:$port/$query" \
            --seconds "$each" >"$work/browser-$via-$size.json" 2>"$work/browser-$via-$size.log" || true
    done
    python3 -c "import sys,urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())" \
        "http://127.0.0.1:$port/stats.json" >"$work/stats-$size.json" 2>/dev/null || true
    "$ONAIR" play --measure-latency --json --duration 10 --timeout 20 "http://127.0.0.1:$port/live.ts" \
        >"$work/play-$size.json" 2>"$work/play-$size.log" || true
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
    python3 - "$size" "$work/browser-webrtc-$size.json" "$work/browser-mse-$size.json" "$work/play-$size.json" \
        "$work/stats-$size.json" <<'PY'
import json, sys
size, webrtc_path, mse_path, play_path, stats_path = sys.argv[1:6]
try:
    encoder = json.load(open(stats_path))["encoder"]
    print(f"{size:9s} serve    encoded {encoder['fps_out']:5.1f} fps, {encoder['dropped_frames']} frames dropped before encoding,"
          f" encode {encoder['encode_latency_ms']:5.1f} ms")
except Exception as error:
    print(f"{size:9s} serve    no statistics ({error})")
p50s = {}
for via, path in [("webrtc", webrtc_path), ("mse", mse_path)]:
    try:
        browser = json.load(open(path))
        l, p, s = browser["latency_ms"], browser["playback"], browser["snapshot"]
        p50s[via] = l["p50"]
        extra = (f"(skips to live {p['live_skips']}, buffer trims {s['trims']})" if s["transport"] == "mse" else
                 f"(page steps ms: {s.get('webrtcTimeline')}, jitter buffer {1000 * s['ahead']:.0f} ms)")
        fell = f" FELL BACK: {browser['fallback_reason']}" if browser.get("fallback_reason") and via == "webrtc" else ""
        print(f"{size:9s} {via:6s}   p50 {l['p50']:6.1f} ms  p95 {l['p95']:6.1f} ms  max {l['max']:6.1f} ms  ({l['count']} frames)"
              f"  first frame {browser['first_frame_ms']:6.0f} ms  decoded {p['fps']:5.1f} fps of {p.get('stream_fps', 0):5.1f}"
              f"  dropped {p['dropped_percent']:4.1f} %  {extra}{fell}")
    except Exception as error:
        print(f"{size:9s} {via:6s}   no measurement ({error}; {open(path).read()[:300]})")
try:
    play = json.load(open(play_path))["latency_ms"]
    ratios = "  ".join(f"{via}/onair play p50 ratio {p50 / play['p50']:.2f}" for via, p50 in p50s.items())
    print(f"{size:9s} onair play /live.ts  p50 {play['p50']:6.1f} ms  p95 {play['p95']:6.1f} ms   {ratios}")
except Exception as error:
    print(f"{size:9s} onair play  no measurement ({error})")
PY
done
