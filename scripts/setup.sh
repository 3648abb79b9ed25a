#!/usr/bin/env bash
# Installs the Debian packages OnAir needs to build, test and run. Idempotent; run as root
# (or with sudo available). Skips apt entirely when everything is already installed.
set -euo pipefail
packages=(
    pkg-config time
    ffmpeg
    libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev
    libavdevice-dev libavfilter-dev
    xvfb x11-xserver-utils pulseaudio pulseaudio-utils
    xdotool
    nginx-light libnginx-mod-rtmp
    python3 python3-venv openssl
    libsdl2-dev libmicrohttpd-dev libsrt-gnutls-dev libpulse-dev libgnutls28-dev libyaml-dev
    chromium chromium-driver python3-selenium iproute2
    curl
    nodejs
    libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gir1.2-gst-rtsp-server-1.0
    gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-tools
    gstreamer1.0-plugins-bad gstreamer1.0-libav
    gstreamer1.0-nice libgstreamer-plugins-bad1.0-dev
    srt-tools
    nftables
    libargon2-dev
    strace
    glib-networking python3-gi gir1.2-gstreamer-1.0 fail2ban
    onvif-tools
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    echo "setup: installing ${missing[*]}" >&2
    $sudo apt-get update -q >&2
    # nginx-light + libnginx-mod-rtmp: the streaming tests run their own nginx on a free loopback port.
    # python3: the adaptive bitrate test's throttling relay and bench/stream_latency.sh.
    # libsdl2/libmicrohttpd/libsrt: the player's window and sound, serve's HTTP and SRT.
    # libgnutls28-dev: the ECDSA certificate of WebRTC peers (DTLS).
    # libyaml-dev: `onair serve --config FILE` (the YAML reader).
    # chromium + chromium-driver + python3-selenium: the browser preview tests.
    # iproute2: network namespaces with tc shaping for the adaptive bitrate tests.
    # glib-networking: GStreamer's TLS (RTSPS); python3-gi + gir1.2-gstreamer-1.0: the RTSPS test's
    # rtspsrc with a CA of its own (Tests/Tools/rtsps_play.py); fail2ban: fail2ban-regex checks the
    # shipped filter (the package's daemon is not needed).
    # curl: the serve tests' and bench/serve_viewers.sh's HTTP viewers.
    # nodejs: `node --check` of the preview page's script (PreviewPageFilesTests).
    # libgstreamer*/plugins-base/-good: the GStreamer shims (appsrc, the RTP payloaders of WebRTC);
    # gstreamer1.0-tools, -plugins-bad (h264parse, mpegtsmux) and -libav (avdec_h264): the RTSP tests'
    # independent player (gst-launch-1.0 rtspsrc). Not VLC: Debian's has no RTSP client (no live555).
    # gir1.2-gst-rtsp-server-1.0: gst-rtsp-server from Python, the RECORD server `onair stream rtsps://`
    # is checked against (Tests/Tools/rtsps_record_server.py); serve's own RTSP needs no GStreamer.
    # gstreamer1.0-nice + libgstreamer-plugins-bad1.0-dev: serve's WebRTC face (webrtcbin's ICE agent;
    # the gstwebrtc/gstsdp headers and libraries CGStreamerWebRTC builds against).
    # libargon2-dev: argon2id password hashes of serve's users (onair hash-password).
    # nftables: 2 % random UDP loss (numgen random) in the WebRTC loss test's network namespace.
    # onvif-tools: onvif-util, the ONVIF client of ONVIFDiscoveryTests (lists the device with -a, reads its profiles).
    # srt-tools: srt-live-transmit, the SRT callers of the serve churn (bench/serve_churn.sh, ServeChurnTests).
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi
# aiortc (PyPI): the WebRTC tests' independent WHEP viewer and WHIP server (Tests/Tools/*.py). Used from the
# python3 on PATH when it has it; otherwise installed into a virtual environment the tests look for
# (Tools.aiortcPython), since a distribution's Python may take no pip packages (Debian 13's is
# externally managed).
venv=/opt/onair-venv
if ! python3 -c "import aiortc, av" 2>/dev/null && ! "$venv/bin/python3" -c "import aiortc, av" 2>/dev/null; then
    { [ -x "$venv/bin/python3" ] || python3 -m venv "$venv"; } && "$venv/bin/python3" -m pip install -q aiortc >&2 \
        || echo "setup: installing aiortc into $venv failed; the WebRTC tests will be skipped" >&2
fi
# onvif-zeep-async (PyPI): Home Assistant's ONVIF library, the client of ONVIFHomeAssistantTests
# (Tests/Tools/onvif_client.py), in the same interpreter the tests find aiortc in.
if ! python3 -c "import onvif, httpx" 2>/dev/null && ! "$venv/bin/python3" -c "import onvif, httpx" 2>/dev/null; then
    { [ -x "$venv/bin/python3" ] || python3 -m venv "$venv"; } && "$venv/bin/python3" -m pip install -q onvif-zeep-async >&2 \
        || echo "setup: installing onvif-zeep-async into $venv failed; the ONVIF client test will be skipped" >&2
fi
# wsdiscovery (PyPI): the WS-Discovery client of ONVIFDiscoveryTests (Tests/Tools/wsdiscovery_probe.py).
if ! python3 -c "import wsdiscovery" 2>/dev/null && ! "$venv/bin/python3" -c "import wsdiscovery" 2>/dev/null; then
    { [ -x "$venv/bin/python3" ] || python3 -m venv "$venv"; } && "$venv/bin/python3" -m pip install -q WSDiscovery >&2 \
        || echo "setup: installing wsdiscovery into $venv failed; the ONVIF discovery test will be skipped" >&2
fi
# m3u8 (PyPI): the playlist parser beside the LL-HLS specification client of LowLatencyHLSServeTests
# (Tests/Tools/llhls_client.py), in the same interpreter.
if ! python3 -c "import m3u8" 2>/dev/null && ! "$venv/bin/python3" -c "import m3u8" 2>/dev/null; then
    { [ -x "$venv/bin/python3" ] || python3 -m venv "$venv"; } && "$venv/bin/python3" -m pip install -q m3u8 >&2 \
        || echo "setup: installing m3u8 into $venv failed; the LL-HLS client test will be skipped" >&2
fi
# promtool, unpacked only: `promtool check metrics` on serve's /metrics (ServeMetricsHealthTests).
# Debian 13 packages it alone (promtool); Debian 12 only inside prometheus, whose installation
# would start a Prometheus daemon where systemd runs.
if ! command -v promtool >/dev/null; then
    scratch=$(mktemp -d)
    for package in promtool prometheus; do
        if (cd "$scratch" && apt-get download "$package" >/dev/null 2>&1 && dpkg -x "$package"_*.deb root) \
            && [ -x "$scratch/root/usr/bin/promtool" ]; then
            sudo=""
            [ "$(id -u)" -eq 0 ] || sudo=sudo
            $sudo install -m 0755 "$scratch/root/usr/bin/promtool" /usr/local/bin/promtool
            break
        fi
    done
    command -v promtool >/dev/null || echo "setup: could not fetch promtool; the metrics format checks will be skipped" >&2
    rm -rf "$scratch"
fi
command -v swift >/dev/null || { echo "setup: Swift 6 toolchain not found on PATH (https://swift.org/install)" >&2; exit 1; }
echo "setup: all dependencies present" >&2
