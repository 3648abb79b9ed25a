#!/usr/bin/env bash
# 1,000 HLS viewers through Debian's nginx as a caching edge in front of one `onair serve`, on
# loopback (docs/edge-nginx.md; issue 33). The edge's configuration is the nginx block of
# docs/edge-nginx.md itself, taken from the page (CAMERA:8080, `listen 80` and the cache path
# replaced by loopback ports and a scratch directory), inside an http block shaped like Debian's
# /etc/nginx/nginx.conf with room for the connections (worker_connections 4096).
#
# The server: a synthetic 1280x720 25 fps source at 768 kb/s video + 64 kb/s audio (with the MPEG-TS overhead ≈ 1 Mb/s),
# 2 s HLS segments. The viewers: wrk (a C load generator, Debian's; its LuaJIT scripts are written
# below), two connections per viewer as a browser's HLS player has: one GETs /live.m3u8 once per
# segment duration (jittered ±50 %) and passes the newest segment it names on, the other GETs
# that newest segment once per segment duration — so 1,000 viewers make ≈ 500 playlist and
# ≈ 500 segment requests a second (≈ 1,000 requests/s) and pull ≈ 125 MB/s. Both stop by
# themselves after MEASURE seconds (wrk -d).
#
# First one viewer (one connection of each kind) plays straight from onair for DIRECT seconds
# (onair's CPU with a direct viewer), then VIEWERS through the edge for MEASURE seconds on the
# same onair process. Prints: requests that reached onair (the edge's access log: those with an
# upstream address) against the segments made and the playlist cache lifetime (1 s), onair's CPU
# with the edge and the viewers against with the one direct viewer, nginx's CPU (master and
# workers), wrk's CPU, requests/s and MB/s, the segment fetch latency (wrk's p50/p95/p99, and
# nginx's own $request_time p95), errors. Then the nginx-rtmp relay recipe of the same page for
# RELAY seconds: `onair stream rtmp://…/live/cam` into nginx-rtmp, its HLS (/hls/cam.m3u8) and
# the RTMP stream pulled back with ffprobe. Not run by CI.
#
#   bench/edge_scale.sh                                   # 1,000 viewers, 60 s
#   VIEWERS=200 MEASURE=20 DIRECT=10 RELAY=0 bench/edge_scale.sh
#   ONAIR=.build/release/onair bench/edge_scale.sh        # use an existing build
#
# MODE=llhls: Low-Latency HLS through the edge over HTTPS and HTTP/2 instead (issue 48). The edge is
# the page's Low-Latency block (its section's ```nginx block: `listen 443 ssl http2` on a loopback
# port with a certificate made here by openssl) in the same Debian-shaped http block, in front of
# `onair serve --hls-variant lowlatency --hls-time 1 --hls-part-duration 0.2` (the same picture,
# --max-viewers VIEWERS + 100: the edge passes each held blocking reload through). The viewers are
# bench/llhls_edge_viewers.py in PROCS processes (default 2; Python asyncio with PyPI's h2, installed in a scratch virtual
# environment when the interpreter lacks it), each with its own HTTP/2 connection, connecting over
# RAMP seconds, then for MEASURE seconds following the live edge as an LL-HLS player does: a blocking
# reload for the hinted part, then the part. Beside them one more viewer of the same kind relays its
# parts into `onair play --measure-latency pipe:0` (glass-to-decode through the edge). Prints: the
# protocol curl --http2 gets, the requests at the edge and those reaching onair per second (by
# kind), onair's and nginx's CPU, the part fetch time p50/p95 and the blocking reloads' wait, the
# parts each viewer got per second (5 at the live edge with 0.2 s parts), glass-to-decode p50/p95,
# errors.
#
#   MODE=llhls VIEWERS=1000 MEASURE=60 bench/edge_scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${MODE:-classic}
viewers=${VIEWERS:-1000}
measure=${MEASURE:-60}
direct=${DIRECT:-30}
relay=${RELAY:-20}
size=${SIZE:-1280x720}
fps=${FPS:-25}
preset=${PRESET:-veryfast}
segment=2
# wrk is the bench's alone (scripts/setup.sh leaves it out): installed here when missing, as root.
if [ "$mode" != llhls ] && ! command -v wrk >/dev/null && [ "$(id -u)" -eq 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends wrk >&2
fi
tools="nginx wrk ffprobe curl"
[ "$mode" = llhls ] && tools="nginx openssl curl"
for tool in $tools; do
    command -v "$tool" >/dev/null || { echo "edge_scale: needs $tool (apt-get install nginx-light wrk ffmpeg curl openssl)" >&2; exit 1; }
done
. bench/loopback.sh
bench_workspace
ticks=$(getconf CLK_TCK)
chmod 0755 "$work" # nginx's workers run as nobody
nginx_pids=()
# Everything this bench started is ended by its own id (nginx's workers by their master).
trap 'for pid in "${nginx_pids[@]}"; do kill "$pid" 2>/dev/null || true; done; bench_cleanup' EXIT

# process_ticks PID…: user + system clock ticks of the processes and their children.
process_ticks() {
    local total=0 pid child
    for pid in "$@"; do
        for child in "$pid" $(cat "/proc/$pid/task/"*/children 2>/dev/null); do
            total=$((total + $(awk '{print $14 + $15}' "/proc/$child/stat" 2>/dev/null || echo 0)))
        done
    done
    echo "$total"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
percent() { awk -v t="$1" -v hz="$ticks" -v s="$2" 'BEGIN { printf "%.1f", t / hz / s * 100 }'; }

# Debian's /etc/nginx/nginx.conf in shape (workers, sendfile, tcp_nopush, mime types, gzip), with
# room for 2 connections per viewer and logs/temporary files in $edge; $edge/onair-edge.conf included.
write_edge_conf() {
    cat >"$edge/nginx.conf" <<CONF
daemon off;
worker_processes auto;
worker_rlimit_nofile 16384;
pid $edge/nginx.pid;
error_log $edge/logs/error.log;
events { worker_connections 4096; }
http {
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    gzip on;
    client_body_temp_path $edge/client_temp;
    proxy_temp_path $edge/proxy_temp;
    fastcgi_temp_path $edge/fastcgi_temp;
    uwsgi_temp_path $edge/uwsgi_temp;
    scgi_temp_path $edge/scgi_temp;
    log_format edge '\$msec \$uri \$status \$body_bytes_sent \$request_time \$upstream_cache_status \$upstream_addr \$server_protocol \$args';
    access_log $edge/logs/access.log edge buffer=256k flush=1s;
    include $edge/onair-edge.conf;
}
CONF
}

if [ "$mode" = llhls ]; then
    ramp=${RAMP:-10}
    procs=${PROCS:-2} # generator processes (Python: one core each at most), the viewers split among them
    python=/opt/onair-venv/bin/python3
    [ -x "$python" ] || python=python3
    if ! "$python" -c "import h2" 2>/dev/null; then
        python3 -m venv "$work/venv" && "$work/venv/bin/pip" install -q h2 >&2
        python="$work/venv/bin/python3"
    fi
    port=$(free_port tcp)
    "$ONAIR" serve --listen "127.0.0.1:$port" --size "$size" --fps "$fps" --bitrate 768k --audio-bitrate 64k --preset "$preset" \
        --hls-variant lowlatency --hls-time 1 --hls-part-duration 0.2 --max-viewers $((viewers + 100)) \
        --duration $((ramp + measure + 90)) 2>"$work/serve-edge.log" &
    server=$!
    pids+=("$server")
    for _ in $(seq 100); do curl -s -m 2 "http://127.0.0.1:$port/live.m3u8" | grep -q "segment_3\.m4s" && break; sleep 0.2; done
    curl -s "http://127.0.0.1:$port/live.m3u8" | grep -q "PRELOAD-HINT" || { echo "onair serve gave no LL-HLS playlist:" >&2; cat "$work/serve-edge.log" >&2; exit 1; }
    echo "onair serve: $size ${fps} fps, 768k video + 64k audio, lowlatency, 1 s segments of 0.2 s parts, preset $preset ($ONAIR)"
    edge_port=$(free_port tcp)
    edge="$work/edge"
    mkdir -p "$edge/cache" "$edge/logs"
    chmod -R 0777 "$edge"
    openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -keyout "$edge/edge.key" -out "$edge/edge.crt" 2>/dev/null
    chmod 0644 "$edge/edge.key"
    awk '/^## Low-Latency HLS through the edge/ { section = 1 } section && /^```nginx/ { on = 1; next } on && /^```/ { exit } on' \
        docs/edge-nginx.md >"$edge/doc-block.conf"
    sed -e "s#/var/cache/nginx/onair-ll#$edge/cache#" -e "s#listen 443 ssl http2;#listen 127.0.0.1:$edge_port ssl http2;#" \
        -e "s#/etc/nginx/onair.crt#$edge/edge.crt#" -e "s#/etc/nginx/onair.key#$edge/edge.key#" \
        -e "s#CAMERA:8080#127.0.0.1:$port#g" "$edge/doc-block.conf" >"$edge/onair-edge.conf"
    for replaced in "$edge/cache" "127.0.0.1:$edge_port ssl http2" "$edge/edge.crt" "127.0.0.1:$port"; do
        grep -qF "$replaced" "$edge/onair-edge.conf" || { echo "edge_scale: docs/edge-nginx.md's LL-HLS block changed shape ($replaced)" >&2; exit 1; }
    done
    write_edge_conf
    nginx -t -p "$edge" -c "$edge/nginx.conf" 2>"$edge/logs/test.log" || { cat "$edge/logs/test.log" >&2; exit 1; }
    nginx -p "$edge" -c "$edge/nginx.conf" 2>>"$edge/logs/stderr.log" &
    edge_pid=$!
    nginx_pids+=("$edge_pid")
    wait_for_port "$edge_port" || { echo "nginx did not start (see $edge/logs)" >&2; cat "$edge/logs/error.log" >&2; exit 1; }
    protocol=$(curl -sk --http2 -o /dev/null -w '%{http_version}' "https://127.0.0.1:$edge_port/live.m3u8")
    echo "edge on 127.0.0.1:$edge_port (nginx $(nginx -v 2>&1 | sed 's#.*/##'), $(ps --ppid "$edge_pid" -o args= | grep -c "worker process") workers): curl --http2 gets HTTP/$protocol"
    : >"$edge/logs/access.log"
    kill -USR1 "$edge_pid"

    before=$(cpu_ticks "$server")
    nginx_before=$(process_ticks "$edge_pid")
    started=$(date +%s.%N)
    generators=()
    for index in $(seq "$procs"); do
        "$python" bench/llhls_edge_viewers.py --port "$edge_port" --viewers $((viewers / procs)) --seconds "$measure" --ramp "$ramp" \
            --samples >"$work/viewers-$index.json" 2>"$work/viewers-$index.log" &
        generators+=("$!")
    done
    sleep "$ramp"
    "$python" bench/llhls_edge_viewers.py --port "$edge_port" --relay $((measure + 5)) 2>"$work/relay.log" |
        "$ONAIR" play --no-display --measure-latency --json --duration "$((measure - 5))" --timeout 20 pipe:0 \
            >"$work/latency.json" 2>"$work/latency.log" || true
    wait "${generators[@]}" || true
    ended=$(date +%s.%N)
    after=$(cpu_ticks "$server")
    nginx_after=$(process_ticks "$edge_pid")
    kill -USR1 "$edge_pid"
    sleep 1.5
    python3 - "$edge/logs/access.log" "$started" "$ended" "$work/viewers-*.json" "$work/latency.json" "$ramp" <<'PY'
import json, sys
path, started, ended, viewers_path, latency_path, ramp = sys.argv[1:7]
lines = [l.split() for l in open(path) if l.strip()]
seconds = float(ended) - float(started)
kind = lambda l: "blocking playlist" if l[1].endswith(".m3u8") and "_HLS_msn" in (l[8] if len(l) > 8 else "") else (
    "playlist" if l[1].endswith(".m3u8") else ("part" if "/part_" in l[1] else "segment/init"))
upstream = [l for l in lines if l[6] != "-"]
def counts(rows):
    result = {}
    for l in rows:
        result[kind(l)] = result.get(kind(l), 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(result.items()))
protocols = sorted({l[7] for l in lines})
statuses = {}
for l in lines:
    statuses[l[2]] = statuses.get(l[2], 0) + 1
print(f"requests at the edge: {len(lines)} in {seconds:.0f} s = {len(lines) / seconds:.0f}/s ({counts(lines)}); protocols {protocols}; statuses {statuses}")
print(f"requests reaching onair: {len(upstream)} = {len(upstream) / seconds:.0f}/s ({counts(upstream)})")
cache = {}
for l in lines:
    if kind(l) == "part":
        cache[l[5]] = cache.get(l[5], 0) + 1
print(f"parts at the edge by X-Cache: {cache}")
import glob
runs = [json.loads(open(f).read().strip().splitlines()[-1]) for f in sorted(glob.glob(viewers_path))]
parts = sorted(x for r in runs for x in r["part_seconds"])
reloads = sorted(x for r in runs for x in r["reload_seconds"])
pick = lambda values, q: round(1000 * values[min(len(values) - 1, int(q * len(values)))], 1) if values else None
errors = {}
for r in runs:
    for k, n in r["errors"].items():
        errors[k] = errors.get(k, 0) + n
viewers = sum(r["viewers"] for r in runs)
connected = sum(r["connected"] for r in runs)
got = sum(r["parts"] for r in runs)
print(f"{viewers} viewers in {len(runs)} generator processes ({connected} connected over {ramp} s), HTTP/2:"
      f" {sum(r['requests'] for r in runs)} requests, {got} parts,"
      f" {got / max(1, connected) / (float(ended) - float(started) - float(ramp)):.2f} parts per viewer per second (5 at the live edge)")
print(f"part fetch (the viewers' clock): p50 {pick(parts, 0.5)} ms, p95 {pick(parts, 0.95)} ms, max {pick(parts, 1)} ms;"
      f" blocking reload wait p50 {pick(reloads, 0.5)} ms; errors {errors or 0}")
try:
    r = json.loads(open(latency_path).read().strip().splitlines()[-1])
    l = r["latency_ms"]
    print(f"glass-to-decode through the edge (one more HTTP/2 viewer into onair play): p50 {l['p50']:.1f} ms, p95 {l['p95']:.1f} ms,"
          f" max {l['max']:.1f} ms ({l['samples']} frames, {r.get('decode_errors', '-')} decode errors)")
except Exception as error:
    print(f"glass-to-decode through the edge: no measurement ({error})")
PY
    seconds=$(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.0f", b - a }')
    echo "CPU (% of one core) over the ${seconds} s: onair $(percent $((after - before)) "$seconds"), nginx $(percent $((nginx_after - nginx_before)) "$seconds")"
    echo "load: $(uptime)"
    exit 0
fi

# The generators' scripts (classic mode). playlist.lua: per connection, GET /live.m3u8 once per segment
# duration (± 50 %), the newest segment of each answer written to $EDGE_NEWEST (by rename).
cat >"$work/playlist.lua" <<'LUA'
local counter = 1
function setup(thread) thread:set("id", counter); counter = counter + 1 end
local period = tonumber(os.getenv("EDGE_PERIOD_MS"))
local file = os.getenv("EDGE_NEWEST")
local newest = -1
function init(args) math.randomseed(os.time() * 100 + id) end
function delay() return period * (0.5 + math.random()) end
function response(status, headers, body)
    if status ~= 200 then return end
    local last
    for n in body:gmatch("segment_(%d+)%.ts") do last = tonumber(n) end
    if last and last > newest then
        newest = last
        local f = io.open(file .. ".tmp" .. id, "w")
        f:write(tostring(last)); f:close()
        os.rename(file .. ".tmp" .. id, file)
    end
end
LUA
# segment.lua: per connection, GET the newest segment once per segment duration (± 50 %); no
# response() hook, so wrk reads the bodies without handing them to Lua.
cat >"$work/segment.lua" <<'LUA'
local counter = 1
function setup(thread) thread:set("id", counter); counter = counter + 1 end
local period = tonumber(os.getenv("EDGE_PERIOD_MS"))
local file = os.getenv("EDGE_NEWEST")
local current, calls = -1, 0
function init(args) math.randomseed(os.time() * 100 + 50 + id) end
function delay() return period * (0.5 + math.random()) end
function request()
    if calls % 25 == 0 then
        local f = io.open(file)
        if f then
            local n = tonumber(f:read("*a")); f:close()
            if n and n > current then current = n end
        end
    end
    calls = calls + 1
    return wrk.format("GET", "/segment_" .. current .. ".ts")
end
LUA
cat >"$work/report.lua" <<'LUA'
function done(summary, latency, requests)
    local e = summary.errors
    io.write(string.format("RESULT requests=%d bytes=%d seconds=%.2f errors=%d p50_ms=%.1f p95_ms=%.1f p99_ms=%.1f max_ms=%.1f\n",
        summary.requests, summary.bytes, summary.duration / 1e6, e.connect + e.read + e.write + e.status + e.timeout,
        latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
LUA
cat "$work/report.lua" >>"$work/playlist.lua"
cat "$work/report.lua" >>"$work/segment.lua"

# run_viewers BASE_URL CONNECTIONS SECONDS NAME: both generators for SECONDS, each under GNU time;
# the segment one starts once a playlist has named a segment.
run_viewers() {
    local url=$1 connections=$2 seconds=$3 name=$4 threads=1
    rm -f "$work/newest"
    [ "$connections" -ge 100 ] && threads=2
    EDGE_PERIOD_MS=$((segment * 1000)) EDGE_NEWEST="$work/newest" /usr/bin/time -f "%U %S" -o "$work/$name-playlist.time" \
        wrk -t "$threads" -c "$connections" -d "${seconds}s" --timeout 10s -s "$work/playlist.lua" "$url/live.m3u8" \
        >"$work/$name-playlist.out" 2>&1 &
    local playlists=$!
    for _ in $(seq 100); do [ -s "$work/newest" ] && break; sleep 0.05; done
    [ -s "$work/newest" ] || { echo "no playlist named a segment:" >&2; cat "$work/$name-playlist.out" >&2; exit 1; }
    EDGE_PERIOD_MS=$((segment * 1000)) EDGE_NEWEST="$work/newest" /usr/bin/time -f "%U %S" -o "$work/$name-segment.time" \
        wrk -t "$threads" -c "$connections" -d "${seconds}s" --timeout 10s -s "$work/segment.lua" "$url/" \
        >"$work/$name-segment.out" 2>&1 &
    local segments=$!
    wait "$playlists" "$segments"
}
result() { sed -n "s/.*RESULT.* $2=\([^ ]*\).*/\1/p; s/^RESULT $2=\([^ ]*\).*/\1/p" "$work/$1.out" | head -1; }
wrk_cpu_seconds() { awk '{ s += $1 + $2 } END { printf "%.1f", s }' "$work/$1-playlist.time" "$work/$1-segment.time"; }

# The server.
port=$(free_port tcp)
"$ONAIR" serve --listen "127.0.0.1:$port" --size "$size" --fps "$fps" --bitrate 768k --audio-bitrate 64k \
    --preset "$preset" --hls-time "$segment" --duration $((direct + measure + 60)) 2>"$work/serve-edge.log" &
server=$!
pids+=("$server")
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/live.m3u8" && break; sleep 0.2; done
curl -sf -o /dev/null "http://127.0.0.1:$port/live.m3u8" || { echo "onair serve gave no playlist:" >&2; cat "$work/serve-edge.log" >&2; exit 1; }
sleep 3
echo "onair serve: $size ${fps} fps, 768k video + 64k audio, ${segment} s segments, preset $preset ($ONAIR)"

# 1. One viewer straight from onair.
before=$(cpu_ticks "$server")
run_viewers "http://127.0.0.1:$port" 1 "$direct" direct
after=$(cpu_ticks "$server")
cpu_direct=$(percent $((after - before)) "$direct")
echo "one direct viewer, ${direct} s: onair CPU ${cpu_direct} % of a core;" \
    "$(result direct-playlist requests) playlist + $(result direct-segment requests) segment requests, segment p95 $(result direct-segment p95_ms) ms"

# 2. The edge: docs/edge-nginx.md's block, with loopback ports and a scratch cache.
edge_port=$(free_port tcp)
edge="$work/edge"
mkdir -p "$edge/cache" "$edge/logs"
chmod -R 0777 "$edge"
awk '/^```nginx/ { on = 1; next } on && /^```/ { exit } on' docs/edge-nginx.md >"$edge/doc-block.conf"
sed -e "s#/var/cache/nginx/onair#$edge/cache#" -e "s#listen 80;#listen 127.0.0.1:$edge_port;#" \
    -e "s#CAMERA:8080#127.0.0.1:$port#g" "$edge/doc-block.conf" >"$edge/onair-edge.conf"
for replaced in "$edge/cache" "127.0.0.1:$edge_port" "127.0.0.1:$port/live.m3u8"; do
    grep -qF "$replaced" "$edge/onair-edge.conf" || { echo "edge_scale: docs/edge-nginx.md's block changed shape ($replaced)" >&2; exit 1; }
done
write_edge_conf
nginx -t -p "$edge" -c "$edge/nginx.conf" 2>"$edge/logs/test.log" || { cat "$edge/logs/test.log" >&2; exit 1; }
nginx -p "$edge" -c "$edge/nginx.conf" 2>>"$edge/logs/stderr.log" &
nginx_pids+=("$!")
edge_pid=$!
wait_for_port "$edge_port" || { echo "nginx did not start (see $edge/logs)" >&2; cat "$edge/logs/error.log" >&2; exit 1; }
sleep 0.5
# A first look: one playlist and one segment through the edge, and what X-Cache says.
first=$(curl -s -D - -o "$work/first.m3u8" "http://127.0.0.1:$edge_port/live.m3u8" | tr -d '\r' | awk -F': ' '$1 == "X-Cache" {print $2}')
newest=$(grep -o 'segment_[0-9]*\.ts' "$work/first.m3u8" | tail -1)
second=$(curl -s -D - -o /dev/null "http://127.0.0.1:$edge_port/$newest" | tr -d '\r' | awk -F': ' '$1 == "X-Cache" {print $2}')
third=$(curl -s -D - -o /dev/null "http://127.0.0.1:$edge_port/$newest" | tr -d '\r' | awk -F': ' '$1 == "X-Cache" {print $2}')
echo "edge on 127.0.0.1:$edge_port (nginx $(nginx -v 2>&1 | sed 's#.*/##'), $(ps --ppid "$edge_pid" -o args= | grep -c "worker process") workers): X-Cache playlist $first, $newest $second then $third"
: >"$edge/logs/access.log"
kill -USR1 "$edge_pid" # reopen the emptied log

before=$(cpu_ticks "$server")
nginx_before=$(process_ticks "$edge_pid")
started=$(date +%s.%N)
run_viewers "http://127.0.0.1:$edge_port" "$viewers" "$measure" edge
ended=$(date +%s.%N)
after=$(cpu_ticks "$server")
nginx_after=$(process_ticks "$edge_pid")
cpu_edge=$(percent $((after - before)) "$measure")
cpu_nginx=$(percent $((nginx_after - nginx_before)) "$measure")
kill -USR1 "$edge_pid" # flush the log buffer
sleep 1.5
wrk_cpu=$(wrk_cpu_seconds edge)
python3 - "$edge/logs/access.log" "$started" "$ended" "$segment" <<PY
import sys
path, started, ended, segment = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
lines = [l.split() for l in open(path) if l.strip()]
upstream = [l for l in lines if l[6] != "-"]
up_playlist = [l for l in upstream if l[1] == "/live.m3u8"]
up_segment = [l for l in upstream if l[1].startswith("/segment_")]
segments_seen = {l[1] for l in lines if l[1].startswith("/segment_") and l[2] == "200"}
seg_times = sorted(float(l[4]) for l in lines if l[1].startswith("/segment_") and l[2] == "200")
statuses = {}
for l in lines:
    statuses[l[5]] = statuses.get(l[5], 0) + 1
seconds = ended - started
print("requests at the edge: %d (%s)" % (len(lines), ", ".join("%s %d" % kv for kv in sorted(statuses.items()))))
print("requests reaching onair: %d in %.0f s = %d segment (%d distinct segments served, ≈ %.0f made) + %d playlist (%.2f/s; cache lifetime 1 s)" % (
    len(upstream), seconds, len(up_segment), len(segments_seen), seconds / segment, len(up_playlist), len(up_playlist) / seconds))
if seg_times:
    print("nginx \$request_time of segments (ms resolution; to the socket buffer): p95 %.1f ms" % (1000 * seg_times[int(0.95 * (len(seg_times) - 1))]))
PY
p_req=$(result edge-playlist requests); s_req=$(result edge-segment requests)
p_bytes=$(result edge-playlist bytes); s_bytes=$(result edge-segment bytes)
seconds=$(result edge-segment seconds)
awk -v p="$p_req" -v s="$s_req" -v pb="$p_bytes" -v sb="$s_bytes" -v t="$seconds" -v n="$viewers" 'BEGIN {
    printf "%d viewers through the edge for %.0f s: %.0f requests/s (%.0f playlist + %.0f segment), %.1f MB/s (%.0f kB a segment)\n",
        n, t, (p + s) / t, p / t, s / t, (pb + sb) / t / 1e6, (s > 0 ? sb / s / 1e3 : 0) }'
echo "segment fetch latency (wrk): p50 $(result edge-segment p50_ms) ms, p95 $(result edge-segment p95_ms) ms, p99 $(result edge-segment p99_ms) ms, max $(result edge-segment max_ms) ms; playlist p95 $(result edge-playlist p95_ms) ms"
echo "errors (connect, read, write, timeout, non-2xx): playlist $(result edge-playlist errors), segment $(result edge-segment errors)"
echo "CPU (% of one core): onair ${cpu_edge} with the edge and ${viewers} viewers against ${cpu_direct} with one direct viewer" \
    "(ratio $(ratio "$cpu_edge" "$cpu_direct")); nginx ${cpu_nginx}; wrk $(percent "$(awk -v c="$wrk_cpu" -v hz="$ticks" 'BEGIN{print c*hz}')" "$measure")"
kill "$edge_pid" 2>/dev/null || true
wait "$edge_pid" 2>/dev/null || true

# 3. The nginx-rtmp relay recipe (docs/edge-nginx.md): push, then pull its HLS and its RTMP.
if [ "$relay" -gt 0 ] && [ -f /usr/lib/nginx/modules/ngx_rtmp_module.so ]; then
    rtmp_port=$(free_port tcp)
    http_port=$(free_port tcp)
    relay_dir="$work/relay"
    mkdir -p "$relay_dir/www/hls"
    chmod -R 0777 "$relay_dir"
    cat >"$relay_dir/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
daemon off;
master_process off;
pid $relay_dir/nginx.pid;
error_log $relay_dir/error.log;
events { worker_connections 256; }
rtmp { server { listen 127.0.0.1:$rtmp_port;
    application live { live on; hls on; hls_path $relay_dir/www/hls; } } }
http {
    include /etc/nginx/mime.types;
    client_body_temp_path $relay_dir/client_temp;
    proxy_temp_path $relay_dir/proxy_temp;
    access_log off;
    server { listen 127.0.0.1:$http_port; root $relay_dir/www; }
}
CONF
    nginx -p "$relay_dir" -c "$relay_dir/nginx.conf" 2>>"$relay_dir/stderr.log" &
    relay_pid=$!
    nginx_pids+=("$relay_pid")
    wait_for_port "$rtmp_port" || { echo "nginx-rtmp did not start" >&2; cat "$relay_dir"/*.log >&2; exit 1; }
    "$ONAIR" stream --size 640x360 --bitrate 768k --audio-bitrate 64k --duration "$relay" \
        "rtmp://127.0.0.1:$rtmp_port/live/cam" 2>"$work/stream.log" &
    streamer=$!
    pids+=("$streamer")
    for _ in $(seq 150); do [ -s "$relay_dir/www/hls/cam.m3u8" ] && break; sleep 0.1; done
    sleep 1
    hls=$(ffprobe -v error -show_entries stream=codec_name,width,height -of csv=p=0 "http://127.0.0.1:$http_port/hls/cam.m3u8" 2>&1 | sort -u | tr '\n' ' ' || true)
    rtmp=$(timeout 15 ffprobe -v error -show_entries stream=codec_name -of csv=p=0 "rtmp://127.0.0.1:$rtmp_port/live/cam" 2>&1 | sort -u | tr '\n' ' ' || true)
    echo "nginx-rtmp relay: onair stream rtmp://127.0.0.1:$rtmp_port/live/cam; HLS http://…/hls/cam.m3u8: [$hls]; RTMP pull: [$rtmp]"
    wait "$streamer" || { echo "onair stream failed:" >&2; tail -5 "$work/stream.log" >&2; }
    kill "$relay_pid" 2>/dev/null || true
    wait "$relay_pid" 2>/dev/null || true
fi
echo "load: $(uptime)"
