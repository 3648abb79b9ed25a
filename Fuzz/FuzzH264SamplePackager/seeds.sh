#!/usr/bin/env bash
# Writes seeds for FuzzH264SamplePackager into directory $1: the access units of tiny x264 streams
# as VideoToolbox hands them out (no SPS/PPS, AVCC lengths), the first byte selecting the input
# length size (low bits: 0 -> 1, 1 -> 2, 3 -> 4 bytes) and the output form (bits 2-3).
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ffmpeg -hide_banner -nostdin -loglevel error -y -f lavfi -i testsrc2=size=64x48:rate=25 -frames:v 3 \
    -c:v libx264 -profile:v baseline -g 2 -f h264 "$work/base.h264"
ffmpeg -hide_banner -nostdin -loglevel error -y -f lavfi -i testsrc2=size=64x48:rate=25 -frames:v 3 \
    -c:v libx264 -bsf:v h264_metadata=aud=insert -f h264 "$work/aud.h264"
python3 - "$work" "$out" <<'PY'
import os, re, sys
work, out = sys.argv[1], sys.argv[2]
for name in sorted(n for n in os.listdir(work) if n.endswith('.h264')):
    data = open(os.path.join(work, name), 'rb').read()
    units = [u.rstrip(b'\x00') for u in re.split(b'\x00\x00\x01', data)[1:]]
    units = [u for u in units if u and u[0] & 31 not in (7, 8)]
    for index, unit in enumerate(units[:6]):
        for selector, size in ((0, 1), (1, 2), (3, 4)):
            for form in range(4):
                part = unit[:250] if size == 1 else unit
                sample = len(part).to_bytes(size, 'big') + part
                path = os.path.join(out, '%s-%d-len%d-form%d' % (name[:-5], index, size, form))
                open(path, 'wb').write(bytes([selector | form << 2]) + sample)
PY
