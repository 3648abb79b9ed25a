#!/usr/bin/env bash
# What one more RTSP/UDP client costs below OnAir: GStreamer's own payloader and UDP sink per client
# and the kernel's loopback send, measured without `onair` — the floor under bench/rtsp_latency.sh's
# CPU figures (`onair serve` feeds each client its own small pipeline: appsrc → rtph264pay → rtpbin
# → UDP, as the RTSP issue asks).
#
# A 1280x720 30 fps 2.5 Mb/s H.264 file (ffmpeg, veryfast, 2 s GOP) played in real time by one
# gst-launch-1.0 process into N branches (tee → queue → rtph264pay → udpsink), each to its own
# loopback UDP port that one Python process reads (so every packet is delivered, as to a real
# client). CPU (user+system, % of one core) of the gst-launch process over SECONDS_EACH at 1, 16 and
# 64 branches; per added branch; and the ratio CPU(64)/CPU(1). Video only (audio adds ~50 packets a
# second per client to the ~250 of video). Two layouts: a payloader per branch (what per-client
# isolation needs), and one shared payloader teed to N UDP sinks (the least any server can do: the
# kernel's send per client and a sink); and, as the floor under a WebRTC viewer (see
# bench/serve_viewers.sh), a payloader and an SRTP encoder (srtpenc, AES-128-CM, HMAC-SHA1-80) per
# branch — no ICE, DTLS, RTCP or retransmission, which webrtcbin adds.
#   LAYOUTS=per-branch-srtp COUNTS="1 32" bench/rtsp_floor.sh
#
#   bench/rtsp_floor.sh                     # 10 s each
#   SECONDS_EACH=20 COUNTS="1 64" bench/rtsp_floor.sh
set -euo pipefail
cd "$(dirname "$0")/.."
each=${SECONDS_EACH:-10}
counts=${COUNTS:-1 16 64}
. bench/loopback.sh
ONAIR=${ONAIR:-unused}
bench_workspace
ticks=$(getconf CLK_TCK)

ffmpeg -hide_banner -v error -f lavfi -i "testsrc2=size=1280x720:rate=30" -t $((each + 30)) \
    -c:v libx264 -preset veryfast -b:v 2.5M -maxrate 2.5M -bufsize 2.5M -g 60 -pix_fmt yuv420p -y "$work/in.mp4"

measure_layout() {  # measure_layout per-branch|shared: the table for one layout
local layout=$1
printf '%-8s %10s %16s   (%s)\n' branches "cpu %" "packets/s read" "$layout"
for n in $counts; do
    # The reader binds its own ports (port 0) and writes them first, so no two branches share one.
    rm -f "$work/read-$n" "$work/read-$n.ports"
    python3 - "$work/read-$n" "$n" <<'PY' &
import selectors, socket, sys, time
out, count_of_ports = sys.argv[1], int(sys.argv[2])
selector = selectors.DefaultSelector()
ports = []
for _ in range(count_of_ports):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    s.bind(("127.0.0.1", 0))
    s.setblocking(False)
    ports.append(s.getsockname()[1])
    selector.register(s, selectors.EVENT_READ)
with open(out + ".ports", "w") as f:
    f.write(" ".join(map(str, ports)) + "\n")
count, started = 0, time.monotonic()
while time.monotonic() - started < 120:
    for key, _ in selector.select(1):
        try:
            while True:
                key.fileobj.recv(2048)
                count += 1
        except BlockingIOError:
            pass
    with open(out + ".tmp", "w") as f:
        f.write("%f %d\n" % (time.monotonic(), count))
    import os
    os.replace(out + ".tmp", out)
PY
    reader=$!
    pids+=("$reader")
    for _ in $(seq 50); do [ -s "$work/read-$n.ports" ] && break; sleep 0.1; done
    read -r -a ports <"$work/read-$n.ports"
    branches=""
    for port in "${ports[@]}"; do
        if [ "$layout" = per-branch-srtp ]; then
            branches+=" t. ! queue max-size-buffers=0 max-size-bytes=0 max-size-time=1000000000 ! rtph264pay mtu=1200 config-interval=-1 ! application/x-rtp,ssrc=(uint)$port ! srtpenc key=$key rtp-cipher=aes-128-icm rtp-auth=hmac-sha1-80 rtcp-cipher=aes-128-icm rtcp-auth=hmac-sha1-80 ! udpsink host=127.0.0.1 port=$port sync=false async=false"
        elif [ "$layout" = per-branch ]; then
            branches+=" t. ! queue max-size-buffers=0 max-size-bytes=0 max-size-time=1000000000 ! rtph264pay mtu=1400 config-interval=-1 ! udpsink host=127.0.0.1 port=$port sync=false async=false"
        else
            branches+=" t. ! queue max-size-buffers=0 max-size-bytes=0 max-size-time=1000000000 ! udpsink host=127.0.0.1 port=$port sync=false async=false"
        fi
    done
    payloader=""
    [ "$layout" = shared ] && payloader="! rtph264pay mtu=1400 config-interval=-1"
    # shellcheck disable=SC2086
    gst-launch-1.0 -q filesrc location="$work/in.mp4" ! qtdemux ! h264parse config-interval=-1 \
        ! identity sync=true $payloader ! tee name=t $branches >"$work/gst-$n.log" 2>&1 &
    gst=$!
    pids+=("$gst")
    sleep 5
    before=$(cpu_ticks "$gst")
    read -r t0 c0 <"$work/read-$n"
    sleep "$each"
    after=$(cpu_ticks "$gst")
    read -r t1 c1 <"$work/read-$n"
    cpu[$layout-$n]=$(python3 -c "print(round(($after - $before) / $ticks / $each * 100, 1))")
    rate=$(python3 -c "print(round(($c1 - $c0) / max(1e-3, $t1 - $t0)))")
    printf '%-8s %10s %16s\n' "$n" "${cpu[$layout-$n]}" "$rate"
    kill "$gst" "$reader" 2>/dev/null || true
    wait "$gst" "$reader" 2>/dev/null || true
done
}
declare -A cpu
first=${counts%% *}
last=${counts##* }
key=000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D
for layout in ${LAYOUTS:-per-branch shared per-branch-srtp}; do
    measure_layout "$layout"
    python3 -c "
first, last, a, b = $first, $last, ${cpu[$layout-$first]}, ${cpu[$layout-$last]}
print('  cpu at %d / cpu at %d: %.2f; per added branch %.3f %% of a core' % (last, first, b / max(a, 1e-9), (b - a) / max(1, last - first)))"
done
