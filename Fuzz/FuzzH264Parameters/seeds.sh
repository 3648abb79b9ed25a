#!/usr/bin/env bash
# Writes seeds for FuzzH264Parameters into directory $1. Each seed is
#   [SPS length][PPS length][SPS unit][PPS unit][first 64 bytes of a slice unit]
# taken from tiny x264 streams made by ffmpeg, so the slice header parses with its own SPS and
# PPS; bare SPS and PPS units are written as seeds too.
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make() {
    local name=$1; shift
    ffmpeg -hide_banner -nostdin -loglevel error -y -f lavfi -i testsrc2=size=64x48:rate=25 -frames:v 3 \
        -c:v libx264 "$@" -f h264 "$work/$name.h264"
}
make baseline -profile:v baseline
make main-b -profile:v main -bf 2
make high-slices -x264-params slices=2:weightp=2
make high444 -pix_fmt yuv444p -qp 0
make high10-intra -pix_fmt yuv420p10le -x264-params keyint=1
make interlaced -x264-params interlaced=1 -bf 2
make hrd -x264-params nal-hrd=cbr -b:v 100k -maxrate 100k -bufsize 200k
make cqm -x264-params cqm=jvt
python3 - "$work" "$out" <<'PY'
import os, re, sys
work, out = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(work)):
    data = open(os.path.join(work, name), 'rb').read()
    units = [u.rstrip(b'\x00') for u in re.split(b'\x00\x00\x01', data)[1:]]
    sps = next(u for u in units if u[0] & 31 == 7)
    pps = next(u for u in units if u[0] & 31 == 8)
    base = os.path.splitext(name)[0]
    open(os.path.join(out, base + '-sps'), 'wb').write(sps)
    open(os.path.join(out, base + '-pps'), 'wb').write(pps)
    for index, unit in enumerate(u for u in units if u[0] & 31 in (1, 5)):
        if index < 4:
            seed = bytes([len(sps), len(pps)]) + sps + pps + unit[:64]
            open(os.path.join(out, '%s-slice%d' % (base, index)), 'wb').write(seed)
PY
