#!/usr/bin/env bash
# Writes seeds for FuzzHEVC into directory $1: small libx265 byte streams (4:2:0, 10-bit, 4:4:4
# with scaling lists, B-frames with AUDs, HRD), their bare SPS units, and the hvcC records
# FFmpeg's MP4 muxer writes for them.
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make() {
    local name=$1 format=$2 params=$3
    ffmpeg -hide_banner -nostdin -loglevel error -y -f lavfi -i testsrc2=size=66x50:rate=25 -frames:v 3 \
        -pix_fmt "$format" -c:v libx265 -preset ultrafast -x265-params "$params:log-level=error" -f hevc "$work/$name.hevc"
    ffmpeg -hide_banner -nostdin -loglevel error -y -i "$work/$name.hevc" -c copy -tag:v hvc1 "$work/$name.mp4"
}
make main yuv420p keyint=2:repeat-headers=1
make main10 yuv420p10le keyint=2:hrd=1:vbv-bufsize=100:vbv-maxrate=50
make rext yuv444p scaling-list=default
make bframes yuv420p bframes=2:aud=1
python3 - "$work" "$out" <<'PY'
import os, re, sys
work, out = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(work)):
    data = open(os.path.join(work, name), 'rb').read()
    base, kind = os.path.splitext(name)
    if kind == '.hevc':
        open(os.path.join(out, base + '-stream'), 'wb').write(data[:4096])
        units = [u.rstrip(b'\x00') for u in re.split(b'\x00\x00\x01', data)[1:]]
        sps = next(u for u in units if (u[0] >> 1) & 63 == 33)
        open(os.path.join(out, base + '-sps'), 'wb').write(sps)
    else:
        at = data.find(b'hvcC')
        size = int.from_bytes(data[at - 4:at], 'big')
        open(os.path.join(out, base + '-hvcC'), 'wb').write(data[at + 4:at - 4 + size])
PY
