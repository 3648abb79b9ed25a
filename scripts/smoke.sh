#!/usr/bin/env bash
# A short smoke run of a built `onair` (path as the argument): records 3 s and probes it, then
# serves for a few seconds and plays it over HTTP (curl + ffprobe; /metrics through promtool),
# RTSP (ffmpeg over TCP, sound and picture) and WHEP (aiortc). Loopback only. Used by
# scripts/check-debian13.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
onair=${1:?usage: scripts/smoke.sh PATH-TO-ONAIR}
work=$(mktemp -d /tmp/onair-smoke.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
fail() { echo "smoke: FAILED: $*" >&2; exit 1; }
python=/opt/onair-venv/bin/python3
[ -x "$python" ] || python=python3

"$onair" record --duration 3 -o "$work/a.mp4" 2>"$work/record.log" || fail "record: $(tail -3 "$work/record.log")"
"$onair" probe "$work/a.mp4" >"$work/probe.txt" || fail "probe"
ffprobe -v error -show_entries stream=codec_name -of csv=p=0 "$work/a.mp4" | sort | tr '\n' ' ' | grep -q "aac h264" \
    || fail "the recording has not H.264 and AAC"
echo "smoke: record + probe ok" >&2

http=$((20000 + RANDOM % 20000)); rtsp=$((http + 1))
"$onair" serve --listen "127.0.0.1:$http" --rtsp-port "$rtsp" --webrtc --duration 25 2>"$work/serve.log" &
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$http/stats.json" && break; sleep 0.1; done
curl -sf -m 3 -o "$work/live.ts" "http://127.0.0.1:$http/live.ts" || [ -s "$work/live.ts" ] || fail "HTTP /live.ts"
[ "$(ffprobe -v error -select_streams v -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$work/live.ts" | head -1)" -gt 10 ] \
    || fail "HTTP /live.ts holds no video"
echo "smoke: serve over HTTP ok" >&2
curl -sf -m 3 -o "$work/metrics.txt" "http://127.0.0.1:$http/metrics" || fail "HTTP /metrics"
if command -v promtool >/dev/null; then
    promtool check metrics <"$work/metrics.txt" >"$work/promtool.txt" 2>&1 \
        || fail "promtool check metrics: $(head -5 "$work/promtool.txt")"
    echo "smoke: /metrics passes promtool check metrics ($(promtool --version 2>&1 | head -1))" >&2
else
    echo "smoke: /metrics fetched; promtool not installed, its check skipped" >&2
fi
ffmpeg -hide_banner -nostdin -v error -rtsp_transport tcp -i "rtsp://127.0.0.1:$rtsp/live" -t 3 -c copy -copyinkf -y "$work/rtsp.ts" \
    || fail "RTSP"
ffprobe -v error -show_entries stream=codec_name -of csv=p=0 "$work/rtsp.ts" | sort | tr '\n' ' ' | grep -q "aac h264" \
    || fail "the RTSP copy has not H.264 and AAC"
echo "smoke: serve over RTSP ok" >&2
if "$python" -c "import aiortc, av" 2>/dev/null; then
    summary=$("$python" Tests/Tools/whep_client.py --url "http://127.0.0.1:$http/whep" --seconds 4 | tail -1)
    echo "smoke: WHEP summary $summary" >&2
    echo "$summary" | "$python" -c 'import json,sys; s=json.load(sys.stdin); sys.exit(0 if s.get("video_frames",0) > 10 else 1)' \
        || fail "WHEP: $summary"
    echo "smoke: serve over WHEP ok" >&2
else
    echo "smoke: WHEP skipped: no aiortc for $python" >&2
fi
echo "smoke: all ok" >&2
