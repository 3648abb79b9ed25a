#!/usr/bin/env bash
# Writes seed Annex-B streams for FuzzAnnexB into directory $1: tiny x264 streams made by ffmpeg
# covering profiles, chroma formats, bit depths, slices, AUD, SEI/HRD, B-frames and interlacing,
# plus a truncated one and one with garbage in front.
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
make() {
    local name=$1; shift
    ffmpeg -hide_banner -nostdin -loglevel error -y -f lavfi -i testsrc2=size=64x48:rate=25 -frames:v 4 \
        -c:v libx264 "$@" -f h264 "$out/$name.h264"
}
make baseline -profile:v baseline
make main-b -profile:v main -bf 2
make high-slices-aud -x264-params slices=2:aud=1
make high444 -pix_fmt yuv444p
make high10 -pix_fmt yuv420p10le
make high422-intra -pix_fmt yuv422p -x264-params keyint=1
make interlaced -x264-params interlaced=1 -bf 2
make hrd -x264-params nal-hrd=vbr -b:v 100k -maxrate 100k -bufsize 200k
make open-gop -x264-params open-gop=1:keyint=2 -bf 1
make cqm -x264-params cqm=jvt
make mono -pix_fmt gray
head -c 700 "$out/main-b.h264" > "$out/truncated.h264"
{ printf 'junk\x00\x00'; cat "$out/baseline.h264"; printf '\x00\x00\x00\x00'; } > "$out/padded.h264"
