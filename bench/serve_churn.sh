#!/usr/bin/env bash
# A soak of `onair serve` under viewer churn, on loopback: a 640x360 synthetic stream served with
# --max-viewers 16, SRT callers on --srt-port, and a recording (-o rec.ts) from the same encode
# (MPEG-TS: an MP4 recording keeps its index in memory, ~2 KB/s, which the memory criterion
# would count),
# while Tests/Tools/serve_churn.py keeps 8–20 viewers coming and going over HTTP-TS, fMP4, HLS and
# SRT (1–60 s each, a third resetting their connection, a few reading slowly, a burst of
# 2 × --max-viewers every 5 minutes) and samples the server's open fds, threads and resident
# memory every 10 s. After the churn the server is stopped (SIGINT) and the recording checked.
#
# Criteria (the script exits 1 if any fails): with no viewer at the end, fds and threads no
# higher than at the baseline (the first sample with no viewer after the warm-up minute) and
# resident memory at most 2 % above it; the high-water mark of viewers (/stats.json
# totals.peak_viewers) never above --max-viewers; every viewer's bytes well-formed and every
# sampled viewer decoded by ffmpeg without an error; the recording holds every frame the encoder
# made (its final statistics line) and `onair probe --sync` finds A/V within a frame and no
# frame missing beyond those the session itself dropped before encoding (it says how many).
#
#   bench/serve_churn.sh                  # 1800 s
#   nice -n 10 bench/serve_churn.sh 600   # ten minutes
#   ONAIR=.build/release/onair KEEP=1 bench/serve_churn.sh 120   # an existing build; keep the files
# Environment: WARMUP (s, default 60), BURST_EVERY (s, default 300), BITRATE (default 1M), SEED.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-1800}
warmup=${WARMUP:-60}
burst_every=${BURST_EVERY:-300}
max_viewers=16
if [ -z "${ONAIR:-}" ]; then
    ONAIR=$(bash scripts/build.sh)
fi
command -v srt-live-transmit >/dev/null || { echo "serve_churn: needs srt-live-transmit (apt-get install srt-tools)" >&2; exit 1; }
. bench/loopback.sh
work=$(mktemp -d)
server=
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
    if [ -z "${KEEP:-}" ]; then rm -rf "$work"; else echo "serve_churn: files kept in $work" >&2; fi
}
trap cleanup EXIT

port=$(free_port tcp)
srt_port=$(free_port udp)
"$ONAIR" serve --listen "127.0.0.1:$port" --srt-port "$srt_port" --max-viewers "$max_viewers" \
    --size 640x360 --bitrate "${BITRATE:-1M}" -o "$work/rec.ts" 2>"$work/serve.log" &
server=$!
wait_for_port "$port" 100 || { echo "onair serve did not listen:" >&2; cat "$work/serve.log" >&2; exit 1; }
echo "serve_churn: onair serve (pid $server) on 127.0.0.1:$port, SRT $srt_port, $seconds s of churn; files in $work" >&2

status=0
python3 Tests/Tools/serve_churn.py --port "$port" --srt-port "$srt_port" --pid "$server" \
    --max-viewers "$max_viewers" --seconds "$seconds" --warmup "$warmup" --burst-every "$burst_every" \
    ${SEED:+--seed "$SEED"} --out "$work/churn" >"$work/summary.json" || status=$?

kill -INT "$server"
served_ok=0
wait "$server" || served_ok=$?
server=
stopped=$(grep -a '^stopped' "$work/serve.log" | tail -n1 || true)
recorded=$(ffprobe -v error -count_packets -select_streams v:0 -show_entries stream=nb_read_packets -of csv=p=0 "$work/rec.ts" || echo 0)
"$ONAIR" probe --sync --json "$work/rec.ts" >"$work/sync.json" 2>"$work/sync.log" || true

python3 - "$work/summary.json" "$stopped" "$recorded" "$work/sync.json" "$served_ok" "$status" <<'REPORT'
import json, re, sys
summary_path, stopped, recorded, sync_path, serve_status, churn_status = sys.argv[1:]
try:
    summary = json.load(open(summary_path))
except ValueError:
    print("serve_churn: the load generator gave no summary (exit %s)" % churn_status)
    sys.exit(1)
failures = list(summary["failures"])
match = re.search(r": (\d+) video frames, (\d+) audio frames, (\d+) dropped", stopped)
encoded, dropped = (int(match.group(1)), int(match.group(3))) if match else (None, None)
recorded = int(next((line for line in recorded.split() if line.strip().isdigit()), "0"))  # TS: listed per program too
try:
    sync = json.load(open(sync_path))
except ValueError:
    sync = {}
offset = sync.get("max_av_offset_ms")
if serve_status != "0":
    failures.append("onair serve exited %s" % serve_status)
if encoded is None:
    failures.append("no final statistics line from onair serve")
elif recorded != encoded:
    failures.append("the recording holds %d video frames, the encoder made %d" % (recorded, encoded))
if offset is None or offset > 1000 / 30:
    failures.append("A/V offset in the recording %s ms (more than a frame)" % offset)
if dropped is None or sync.get("dropped_frames", 1) > dropped:
    failures.append("%s frames missing from the recording's frame codes, the session dropped %s" % (sync.get("dropped_frames"), dropped))
base, final, peak = summary["baseline"] or {}, summary["final"] or {}, summary["max_sampled"]
counts = summary["counts"]
print("serve_churn: %.0f s, %d samples; viewers launched %d (ts %d, mp4 %d, hls %d, srt %d), served over HTTP %d, SRT %d, "
      "refused %d, left abruptly %d, ended by the server %d; %d bursts of %d; %d errors" % (
      summary["seconds"], summary["samples"], counts.get("launched", 0), counts.get("launched_ts", 0), counts.get("launched_mp4", 0),
      counts.get("launched_hls", 0), counts.get("launched_srt", 0), counts.get("served", 0), counts.get("srt_served", 0),
      counts.get("refused", 0) + counts.get("srt_refused", 0), counts.get("left_abruptly", 0), counts.get("ended_by_server", 0),
      counts.get("bursts", 0), 2 * 16, counts.get("errors", 0)))
print("serve_churn: %d MB received; HLS segments %d; decoded samples %d %s, with errors %d" % (
      counts.get("bytes", 0) // 1_000_000, counts.get("hls_segments", 0), summary["decoded"], summary["decoded_by_kind"],
      len(summary["decode_failures"])))
for name, key in (("open fds", "fds"), ("threads", "threads"), ("resident kB", "rss_kb"),
                  ("  anonymous", "rss_anon_kb"), ("  file pages", "rss_file_kb")):
    print("serve_churn: %-12s baseline %s, end %s, highest sampled %s" % (name, base.get(key), final.get(key), peak.get(key)))
print("serve_churn: viewers at once: highest sampled %d, high-water mark %d (max %d)" % (peak["viewers"], summary["peak_viewers"], 16))
print("serve_churn: recording %d video frames, encoder %s, dropped before encoding %s; probe --sync: max A/V offset %s ms, %s missing" % (
      recorded, encoded, dropped, None if offset is None else round(offset, 2), sync.get("dropped_frames")))
print("serve_churn: %s" % stopped)
for failure in failures:
    print("serve_churn: FAILED: " + failure)
print("serve_churn: %s" % ("all criteria held" if not failures else "%d criteria failed" % len(failures)))
sys.exit(1 if failures else 0)
REPORT
