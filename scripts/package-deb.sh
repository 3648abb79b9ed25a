#!/usr/bin/env bash
# Builds a Debian package of the `onair` tool: onair_VERSION_ARCH.deb in the current directory
# (or in $1). The binary is scripts/build.sh's (release, --static-swift-stdlib: no Swift runtime
# needed); the C libraries it links (FFmpeg, GStreamer, libsrt, libmicrohttpd, SDL2, libyaml, …)
# stay dynamic and are declared in Depends (found from the binary's NEEDED entries with dpkg -S),
# with the GStreamer plugins and glib-networking it loads at run time. Holds the systemd units,
# a commented /etc/onair/onair.yml (a conffile) and a man page made from --help.
#   scripts/package-deb.sh [OUTPUT_DIRECTORY]
# ONAIR_EXECUTABLE=PATH packages that binary instead of building (the tests do: a build inside
# `swift test` would wait forever for the build directory's lock).
# ONAIR_DEB_COMPRESSION=xz|zstd|gzip|none picks dpkg-deb's compressor (default xz; the tests
# take none: xz of the 86 MB binary is most of the script's time, a minute beside the suite).
# remove keeps /etc/onair and the recordings (/var/lib/onair); purge removes both.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath "${1:-.}")
onair=${ONAIR_EXECUTABLE:-$(scripts/build.sh)}
arch=$(dpkg --print-architecture)
# The tool's own version (onair --version), then the commit it was built from.
release=$("$onair" --version | awk '$1 == "onair" {print $2}')
[ -n "$release" ] || { echo "package-deb: $onair --version printed no version" >&2; exit 1; }
version="$release+git$(git log -1 --format=%cd --date=format:%Y%m%d).$(git rev-parse --short HEAD)"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
chmod 0755 "$root"

install -D -m 0755 "$onair" "$root/usr/bin/onair"
strip --strip-unneeded "$root/usr/bin/onair"
install -D -m 0644 dist/systemd/onair.service "$root/lib/systemd/system/onair.service"
install -D -m 0644 dist/systemd/onair@.service "$root/lib/systemd/system/onair@.service"
install -D -m 0644 dist/onair.yml "$root/etc/onair/onair.yml"
install -d "$root/usr/share/doc/onair" "$root/usr/share/man/man1"
printf 'onair %s\nSee https://github.com (OnAir) for sources.\n' "$version" > "$root/usr/share/doc/onair/README.Debian"

# The man page: NAME, SYNOPSIS and the commands from `onair --help`, then each command's --help.
{
    printf '.TH ONAIR 1 "%s" "onair %s" "User Commands"\n' "$(date -u +%Y-%m-%d)" "$version"
    printf '.SH NAME\nonair \\- capture, encode (H.264/AAC), record, stream and serve live video\n'
    printf '.SH SYNOPSIS\n.B onair\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR]\n.SH DESCRIPTION\n.nf\n'
    "$onair" --help | sed -e 's/\\/\\\\/g' -e 's/^\./\\\&./' -e "s/^'/\\\\\&'/"
    printf '.fi\n'
    for command in $("$onair" --help | awk '/^Commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}'); do
        printf '.SH "ONAIR %s"\n.nf\n' "$(echo "$command" | tr a-z A-Z)"
        "$onair" "$command" --help | sed -e 's/\\/\\\\/g' -e 's/^\./\\\&./' -e "s/^'/\\\\\&'/"
        printf '.fi\n'
    done
    printf '.SH FILES\n.TP\n/etc/onair/onair.yml\nthe settings of onair.service (onair@NAME: /etc/onair/NAME.yml)\n'
    printf '.TP\n/var/lib/onair\nrecordings (the units'"'"' StateDirectory)\n'
} | gzip -9n > "$root/usr/share/man/man1/onair.1.gz"

# Depends: the package of each shared library the binary names (NEEDED; theirs depend on the
# rest), found where the loader finds it, plus what it loads at run time.
paths=$(ldd "$onair")
packages=$(objdump -p "$onair" | awk '$1 == "NEEDED" {print $2}' | while read -r name; do
    library=$(printf '%s\n' "$paths" | awk -v n="$name" '$1 == n && $3 ~ /^\// {print $3}')
    [ -n "$library" ] || continue
    dpkg -S "$library" 2>/dev/null || dpkg -S "$(realpath "$library")" 2>/dev/null || true
done | cut -d: -f1 | sort -u)
depends=$(for p in $packages; do
    v=$(dpkg-query -W -f='${Version}' "$p" | sed 's/-[^-]*$//')
    printf '%s (>= %s), ' "$p" "$v"
done)
depends+="libavdevice59, gstreamer1.0-plugins-base, gstreamer1.0-plugins-good, gstreamer1.0-plugins-bad, gstreamer1.0-nice, glib-networking"

install -d "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<CONTROL
Package: onair
Version: $version
Architecture: $arch
Maintainer: OnAir <onair@localhost>
Section: video
Priority: optional
Depends: $depends
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Description: live camera server: capture, encode once, serve many viewers
 onair captures video and sound, encodes them once (H.264, AAC) and records,
 streams (RTMP, SRT, RTSP, WHIP, HLS) or serves them to many viewers at once
 (HTTP MPEG-TS, fragmented MP4, HLS, SRT, RTSP, WebRTC), with Prometheus
 metrics, a health check and a systemd unit (Type=notify, watchdog).
CONTROL
echo /etc/onair/onair.yml > "$root/DEBIAN/conffiles"
# An upgrade ($2: the version configured before) restarts the units that run, so they run the new
# binary; a first install starts nothing (`systemctl enable --now onair` once the config is edited).
cat > "$root/DEBIAN/postinst" <<'SCRIPT'
#!/bin/sh
set -e
if [ -d /run/systemd/system ]; then
    systemctl daemon-reload || true
    if [ "$1" = configure ] && [ -n "$2" ]; then
        systemctl try-restart onair.service 'onair@*.service' || true
    fi
fi
exit 0
SCRIPT
cat > "$root/DEBIAN/postrm" <<'SCRIPT'
#!/bin/sh
set -e
if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
if [ "$1" = purge ]; then
    # Recordings of the units' StateDirectory (DynamicUser keeps them under /var/lib/private).
    rm -rf /var/lib/onair /var/lib/private/onair
    rmdir /etc/onair 2>/dev/null || true
fi
exit 0
SCRIPT
cat > "$root/DEBIAN/prerm" <<'SCRIPT'
#!/bin/sh
set -e
if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
    systemctl stop onair.service 'onair@*.service' 2>/dev/null || true
fi
exit 0
SCRIPT
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/postrm" "$root/DEBIAN/prerm"
deb="$out/onair_${version}_${arch}.deb"
fakeroot dpkg-deb --build -Z"${ONAIR_DEB_COMPRESSION:-xz}" "$root" "$deb" >&2
echo "$deb"
