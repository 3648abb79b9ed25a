#!/usr/bin/env bash
# Portability check: builds OnAir in a Debian 13 (trixie: FFmpeg 7.1, GStreamer 1.26, Python 3.13)
# chroot made with debootstrap, with this machine's Swift toolchain bind-mounted, installs the
# packages with the project's own scripts/setup.sh there, and runs the fast unit tests and a smoke
# run (record, probe, serve over HTTP, RTSP and WHEP to local clients). Run as root; the package
# registry this machine's apt uses is the only network it needs (its address is read from the
# machine's own apt sources). The root is kept in ROOT (default /var/tmp/onair-debian13) and
# reused; `--fresh` makes it anew. CI does not run it (minutes of downloads).
#
#   sudo scripts/check-debian13.sh [--fresh]
set -euo pipefail
cd "$(dirname "$0")/.."
tree=$(pwd)
root=${ROOT:-/var/tmp/onair-debian13}
[ "$(id -u)" -eq 0 ] || { echo "check-debian13: run as root (debootstrap, chroot, mounts)" >&2; exit 2; }
[ "${1:-}" = "--fresh" ] && rm -rf "$root"
toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")
mirror=$(grep -hoE '^(URIs: |deb )[a-z]+://[^ ]+/debian/?( |$)' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
    | head -1 | sed -E "s/^(URIs: |deb )//; s/ *$//" || true)
[ -n "$mirror" ] || { echo "check-debian13: no Debian mirror in this machine's apt sources" >&2; exit 1; }
command -v debootstrap >/dev/null || apt-get install -y -q debootstrap >&2
step() { echo "== check-debian13: $* ($(date +%T))" >&2; }

if [ ! -x "$root/usr/bin/apt-get" ]; then
    step "debootstrap trixie into $root"
    debootstrap --variant=minbase --include=ca-certificates,sudo,git,procps trixie "$root" "$mirror" >&2
fi
mounts=()
cleanup() { for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null || true; done; }
trap cleanup EXIT
bind() { mkdir -p "$root$2"; mount --bind "$1" "$root$2"; mounts+=("$root$2"); }
bind /proc /proc
bind /dev /dev
bind /sys /sys
bind /dev/pts /dev/pts
bind "$toolchain" /opt/onair-toolchain
mkdir -p "$root/dev/shm"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# This machine's own trust and pip settings (a registry behind a proxy with its own authority).
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >/dev/null 2>&1 || true
fi
[ -f /etc/pip.conf ] && cp /etc/pip.conf "$root/etc/pip.conf"
# The tree as it is now (tracked and new files), without build products.
step "copying the tree"
rm -rf "$root/src/onair"
mkdir -p "$root/src/onair"
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
    [ -e "$f" ] || [ -L "$f" ] || continue
    mkdir -p "$root/src/onair/$(dirname "$f")"
    cp -P "$f" "$root/src/onair/$f"
done
in_root() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/opt/onair-toolchain/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 TERM=dumb bash -o pipefail -c "$1"; }
step "versions"
in_root 'apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends \
    gcc g++ libc6-dev libstdc++-14-dev libcurl4 libxml2 libncurses6 binutils libz3-4 python3 >/dev/null'
step "scripts/setup.sh (the project's own set-up)"
in_root 'cd /src/onair && bash scripts/setup.sh'
in_root 'ffmpeg -version | head -1; gst-launch-1.0 --version | sed -n 2p; python3 --version; swift --version 2>&1 | head -1'
step "swift build"
in_root 'cd /src/onair && swift build 2>&1 | tee /tmp/onair-build.log | tail -3 && ! grep -B2 -A6 "warning:" /tmp/onair-build.log'
step "unit tests"
in_root 'cd /src/onair && swift test --no-parallel --filter "OnAirBitstreamTests|OnAirHTTPTests|OnAirAppleTests|OnAirGStreamerTests|OnAirFFmpegTests.FFmpegErrorTests|OnAirFFmpegTests.FFmpegVersionBranchTests|OnAirFFmpegTests.ContainerWriterFaultTests|OnAirTests.KeyFrameScheduleTests|OnAirTests.ServeJoinPacerTests" > /tmp/unit-tests.log 2>&1; status=$?; grep -E "✘|Test run with" /tmp/unit-tests.log | tail -40; exit $status'
step "release build and smoke run"
in_root 'cd /src/onair && bash scripts/smoke.sh "$(bash scripts/build.sh)"'
step "green"
