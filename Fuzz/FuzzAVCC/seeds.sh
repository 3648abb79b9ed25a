#!/usr/bin/env bash
# Writes seeds for FuzzAVCC into directory $1: avcC payloads from tiny x264 streams remuxed to MP4
# by ffmpeg, and AVCC samples (first byte selects the length size: 0 -> 1, 1 -> 2, 3 -> 4 bytes)
# built from the streams' first access units.
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make() {
    local name=$1; shift
    ffmpeg -hide_banner -nostdin -loglevel error -y -f lavfi -i testsrc2=size=64x48:rate=25 -frames:v 2 \
        -c:v libx264 "$@" -f h264 "$work/$name.h264"
    ffmpeg -hide_banner -nostdin -loglevel error -y -i "$work/$name.h264" -c:v copy "$work/$name.mp4"
}
make baseline -profile:v baseline
make high -profile:v high
make high444 -pix_fmt yuv444p
make high10 -pix_fmt yuv420p10le
make mono -pix_fmt gray
python3 - "$work" "$out" <<'PY'
import os, re, struct, sys
work, out = sys.argv[1], sys.argv[2]

def find_avcc(data, start, end):
    offset = start
    while offset + 8 <= end:
        size, kind = struct.unpack('>I4s', data[offset:offset + 8])
        if size < 8 or offset + size > end:
            return None
        if kind == b'avcC':
            return data[offset + 8:offset + size]
        skip = {b'moov': 0, b'trak': 0, b'mdia': 0, b'minf': 0, b'stbl': 0, b'stsd': 8, b'avc1': 78}.get(kind)
        if skip is not None:
            found = find_avcc(data, offset + 8 + skip, offset + size)
            if found:
                return found
        offset += size
    return None

for name in sorted(n for n in os.listdir(work) if n.endswith('.h264')):
    base = os.path.splitext(name)[0]
    mp4 = open(os.path.join(work, base + '.mp4'), 'rb').read()
    record = find_avcc(mp4, 0, len(mp4))
    if record:
        open(os.path.join(out, base + '.avcC'), 'wb').write(record)
    data = open(os.path.join(work, name), 'rb').read()
    units = [u.rstrip(b'\x00') for u in re.split(b'\x00\x00\x01', data)[1:]]
    first_au = []
    for unit in units:
        first_au.append(unit[:200])
        if unit[0] & 31 in (1, 5):
            break
    for selector, size in ((0, 1), (1, 2), (3, 4)):
        sample = b''.join(len(u).to_bytes(size, 'big') + u for u in first_au)
        open(os.path.join(out, '%s-sample%d' % (base, size)), 'wb').write(bytes([selector]) + sample)
PY
