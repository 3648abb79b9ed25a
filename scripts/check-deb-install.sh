#!/usr/bin/env bash
# Installs the .deb into a clean Debian 12 (bookworm, debootstrap minbase) root and checks what the
# README's "Run as a service" says of it: `apt-get install ./onair_….deb` resolves every library
# from Depends alone (no Recommends; ldd finds every one), `onair --version` and a 3 s recording
# run there (the file probed by ffprobe, outside the root), `onair serve` with RTSP and WebRTC
# starts there (the GStreamer plugins it loads at run time) and answers ffprobe and /healthz, `apt-get remove onair` keeps
# /etc/onair/onair.yml (edited, so a conffile) and the recordings in /var/lib/onair, and
# `apt-get purge onair` removes both. No systemd runs in the root (the maintainer scripts must
# cope); for remove, a reinstall (an upgrade) and purge a stand-in systemctl writes down what the
# maintainer scripts ask of systemd (stop on remove, try-restart on upgrade); the recordings are put where the units' StateDirectory puts them under DynamicUser=yes
# (/var/lib/private/onair, /var/lib/onair a link to it).
#
# Run as root. The package registry this machine's apt uses is the only network it needs (the
# mirror is read from the machine's own apt sources). The bare root is made once and kept as a
# tarball in CACHE (default /var/cache/onair-debootstrap), with the root's downloaded packages,
# so a rerun downloads nothing; --fresh makes both anew. CI does not run it (minutes of
# downloads).
#
#   sudo scripts/check-deb-install.sh [--fresh] [onair_VERSION_ARCH.deb]
#   ONAIR_EXECUTABLE=PATH sudo scripts/check-deb-install.sh     # package that binary (no build)
set -euo pipefail
cd "$(dirname "$0")/.."
cache=${CACHE:-/var/cache/onair-debootstrap}
suite=bookworm
[ "$(id -u)" -eq 0 ] || { echo "check-deb-install: run as root (debootstrap, chroot, mounts)" >&2; exit 2; }
if [ "${1:-}" = "--fresh" ]; then
    rm -rf "$cache"
    shift
fi
command -v debootstrap >/dev/null || apt-get install -y -q debootstrap >&2
command -v ffprobe >/dev/null || { echo "check-deb-install: needs ffprobe (apt-get install ffmpeg)" >&2; exit 2; }
mirror=$(grep -hoE '^(URIs: |deb )[a-z]+://[^ ]+/debian/?( |$)' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
    | head -1 | sed -E "s/^(URIs: |deb )//; s/ *$//; s#/\$##" || true)
[ -n "$mirror" ] || { echo "check-deb-install: no Debian mirror in this machine's apt sources" >&2; exit 1; }
step() { echo "== check-deb-install: $* ($(date +%T))" >&2; }
work=$(mktemp -d /var/tmp/onair-deb-check.XXXXXX)
mounts=()
cleanup() {
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
failures=0
expect() { # expect DESCRIPTION SHELL-CONDITION (evaluated on this machine)
    if bash -c "$2"; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}

# The bare root, made once and cached.
mkdir -p "$cache/archives/partial"
tarball="$cache/$suite-minbase.tar.gz"
if [ ! -f "$tarball" ]; then
    step "debootstrap --variant=minbase $suite (cached as $tarball)"
    debootstrap --variant=minbase "$suite" "$work/bare" "$mirror" >&2
    # What a Debian 12 installation's sources are: the release, its updates and security.
    cat > "$work/bare/etc/apt/sources.list" <<SOURCES
deb $mirror $suite main
deb $mirror $suite-updates main
deb ${mirror%/debian}/debian-security $suite-security main
SOURCES
    tar -C "$work/bare" -czf "$tarball.partial" . && mv "$tarball.partial" "$tarball"
    rm -rf "$work/bare"
fi
# The package: the one given, or built now.
if [ -n "${1:-}" ]; then
    deb=$(realpath "$1")
else
    step "building the package (scripts/package-deb.sh)"
    deb=$(scripts/package-deb.sh "$work")
fi
[ -f "$deb" ] || { echo "check-deb-install: no package at $deb" >&2; exit 1; }
echo "package: $deb ($(du -h "$deb" | cut -f1))"

root="$work/root"
mkdir "$root"
tar -C "$root" -xzf "$tarball"
bind() { mkdir -p "$root$2"; mount --bind "$1" "$root$2"; mounts+=("$root$2"); }
bind /proc /proc
bind /dev /dev
bind /dev/pts /dev/pts
bind "$cache/archives" /var/cache/apt/archives
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
fi
# No daemon may start in the root (the usual guard of a chroot).
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"
in_root() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive bash -o pipefail -c "$1"; }

step "apt-get install ./$(basename "$deb") in the clean root"
cp "$deb" "$root/tmp/"
in_root 'apt-get update -q >/dev/null'
before=$(in_root 'dpkg-query -W -f="\${Package}\n" | wc -l')
start=$(date +%s)
if in_root "apt-get install -y -q --no-install-recommends /tmp/$(basename "$deb")" > "$work/install.log" 2>&1; then
    echo "ok   apt-get install ./$(basename "$deb") (--no-install-recommends): $(($(in_root 'dpkg-query -W -f="\${Package}\n" | wc -l') - before)) packages, $(($(date +%s) - start)) s"
else
    echo "FAIL apt-get install ./$(basename "$deb")"; tail -30 "$work/install.log"; exit 1
fi
grep -E "^(Need to get|After this operation)" "$work/install.log" | sed 's/^/     /'
expect "every library of /usr/bin/onair found (ldd)" "! chroot '$root' ldd /usr/bin/onair | grep -q 'not found'"
version=$(in_root 'onair --version' 2>&1) && echo "ok   onair --version: $version" || { echo "FAIL onair --version: $version"; failures=$((failures + 1)); }
expect "the man page and both units are installed" \
    "[ -f '$root/usr/share/man/man1/onair.1.gz' ] && [ -f '$root/lib/systemd/system/onair.service' ] && [ -f '$root/lib/systemd/system/onair@.service' ]"
expect "the shipped /etc/onair/onair.yml is accepted (--print-config)" \
    "chroot '$root' onair serve --config /etc/onair/onair.yml --print-config | grep -q 'max-viewers: 32'"

step "a 3 s recording where the service records (StateDirectory under DynamicUser=yes)"
in_root 'mkdir -p /var/lib/private/onair && chmod 0700 /var/lib/private && ln -sfn private/onair /var/lib/onair'
if in_root 'cd /var/lib/onair && onair record --duration 3 -o /var/lib/onair/check.mp4' > "$work/record.log" 2>&1; then
    echo "ok   onair record --duration 3 -o /var/lib/onair/check.mp4"
else
    echo "FAIL onair record"; tail -20 "$work/record.log"; failures=$((failures + 1))
fi
recording="$root/var/lib/private/onair/check.mp4"
probe=$(ffprobe -v error -show_entries format=duration:stream=codec_name -of default=nw=1 "$recording" 2>&1 | tr '\n' ' ' || true)
echo "     ffprobe: $probe"
expect "the recording has H.264 and AAC and lasts 3 s (±0.5)" \
    "echo '$probe' | grep -q codec_name=h264 && echo '$probe' | grep -q codec_name=aac && \
     awk -v d=\"\$(echo '$probe' | sed -n 's/.*duration=\\([0-9.]*\\).*/\\1/p')\" 'BEGIN { exit !(d >= 2.5 && d <= 3.5) }'"

step "onair serve in the root: HTTP, HLS, RTSP and WebRTC (GStreamer's plugins from Depends), health"
free_port() { python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])"; }
http_port=$(free_port)
rtsp_port=$(free_port)
in_root "onair serve --listen 127.0.0.1:$http_port --rtsp-port $rtsp_port --webrtc --size 640x360 --duration 14" \
    > "$work/serve.log" 2>&1 &
serve=$!
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$http_port/live.m3u8" && break; sleep 0.1; done
sleep 2
expect "serve: /healthz answers 200" "curl -sf -o /dev/null http://127.0.0.1:$http_port/healthz"
rtsp=$(timeout 15 ffprobe -v error -show_entries stream=codec_name -of csv=p=0 "rtsp://127.0.0.1:$rtsp_port/live" 2>&1 | sort -u | tr '\n' ' ' || true)
hls=$(timeout 15 ffprobe -v error -show_entries stream=codec_name -of csv=p=0 "http://127.0.0.1:$http_port/live.m3u8" 2>&1 | sort -u | tr '\n' ' ' || true)
echo "     ffprobe: RTSP [$rtsp] HLS [$hls]"
expect "serve: RTSP and HLS carry H.264 and AAC (ffprobe on this machine)" \
    "echo '$rtsp' | grep -q 'aac h264' && echo '$hls' | grep -q 'aac h264'"
# A WebRTC viewer (aiortc, from scripts/setup.sh's venv) where one is installed on this machine.
whep_python=$(for p in python3 /opt/onair-venv/bin/python3; do "$p" -c "import aiortc" 2>/dev/null && echo "$p" && break; done || true)
if [ -n "$whep_python" ]; then
    frames=$("$whep_python" Tests/Tools/whep_viewers.py --url "http://127.0.0.1:$http_port/whep" --count 1 --decode 0 \
        --seconds 3 2>/dev/null | python3 -c "import json,sys; print(json.loads(sys.stdin.readline())['viewers'][0].get('video_frames', 0))" || echo 0)
    expect "serve: a WHEP viewer gets video over WebRTC ($frames frames in 3 s)" "[ '$frames' -gt 30 ]"
else
    echo "skip serve: WebRTC viewer (no aiortc on this machine)"
fi
wait "$serve" || { echo "FAIL onair serve exited non-zero"; tail -20 "$work/serve.log"; failures=$((failures + 1)); }

# From here the maintainer scripts see systemd (/run/systemd/system) and call a systemctl that only
# writes down what it was asked, in place of the real one (the dependencies bring systemd's package;
# they are installed, so only onair's scripts run from here).
mkdir -p "$root/run/systemd/system"
systemctl_path=$(chroot "$root" sh -c 'command -v systemctl' || echo /usr/bin/systemctl)
[ -e "$root$systemctl_path" ] && mv "$root$systemctl_path" "$root$systemctl_path.real"
printf '#!/bin/sh\necho "$*" >> /var/log/systemctl-calls\n' > "$root$systemctl_path"
chmod 0755 "$root$systemctl_path"
calls() { cat "$root/var/log/systemctl-calls" 2>/dev/null | tr '\n' ';'; rm -f "$root/var/log/systemctl-calls"; }

step "apt-get remove onair"
# An edited configuration, as a user leaves it: remove must keep it (and the recordings).
in_root 'sed -i "s/^max-viewers: 32/max-viewers: 7/" /etc/onair/onair.yml'
in_root 'apt-get remove -y -q onair' > "$work/remove.log" 2>&1 || { echo "FAIL apt-get remove onair"; tail -20 "$work/remove.log"; exit 1; }
said=$(calls)
expect "remove: the units are stopped, then systemd reloaded (systemctl: $said)" \
    "[ '$said' = 'stop onair.service onair@*.service;daemon-reload;' ]"
expect "remove: /usr/bin/onair and the units are gone" \
    "[ ! -e '$root/usr/bin/onair' ] && [ ! -e '$root/lib/systemd/system/onair.service' ] && [ ! -e '$root/lib/systemd/system/onair@.service' ]"
expect "remove: the package is left in state rc (configuration kept)" \
    "chroot '$root' dpkg-query -W -f='\${db:Status-Abbrev}' onair | grep -q '^rc'"
expect "remove: the edited /etc/onair/onair.yml is kept" "grep -q '^max-viewers: 7' '$root/etc/onair/onair.yml'"
expect "remove: the recording in /var/lib/onair is kept" "[ -s '$root/var/lib/onair/check.mp4' ]"

step "apt-get install again: the kept configuration stays as edited"
in_root "apt-get install -y -q --no-install-recommends /tmp/$(basename "$deb")" > "$work/reinstall.log" 2>&1 \
    || { echo "FAIL reinstall"; tail -20 "$work/reinstall.log"; exit 1; }
expect "reinstall: /etc/onair/onair.yml still has the edit (no prompt, no .dpkg-new)" \
    "grep -q '^max-viewers: 7' '$root/etc/onair/onair.yml' && [ ! -e '$root/etc/onair/onair.yml.dpkg-new' ]"

said=$(calls)
expect "reinstall (an upgrade from the kept version): running units restarted (systemctl: $said)" \
    "[ '$said' = 'daemon-reload;try-restart onair.service onair@*.service;' ]"

step "apt-get purge onair"
in_root 'apt-get purge -y -q onair' > "$work/purge.log" 2>&1 || { echo "FAIL apt-get purge onair"; tail -20 "$work/purge.log"; exit 1; }
said=$(calls)
expect "purge: the units are stopped, then systemd reloaded (systemctl: $said)" \
    "[ '$said' = 'stop onair.service onair@*.service;daemon-reload;daemon-reload;' ]"
expect "purge: the package is unknown to dpkg" "! chroot '$root' dpkg-query -W -f='\${db:Status-Abbrev}' onair 2>/dev/null | grep -q ."
expect "purge: /etc/onair is gone" "[ ! -e '$root/etc/onair' ]"
expect "purge: /var/lib/onair and /var/lib/private/onair (the recordings) are gone" \
    "[ ! -e '$root/var/lib/onair' ] && [ ! -L '$root/var/lib/onair' ] && [ ! -e '$root/var/lib/private/onair' ]"
expect "purge: the Debian root's own files are untouched (/var/lib/dpkg, /etc/apt)" "[ -d '$root/var/lib/dpkg' ] && [ -d '$root/etc/apt' ]"

if [ "$failures" -eq 0 ]; then echo "check-deb-install: all passed"; else echo "check-deb-install: $failures failed"; exit 1; fi
