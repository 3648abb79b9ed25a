#!/usr/bin/env bash
# Writes seed ADTS streams for FuzzADTS into directory $1: short ffmpeg-made streams at several
# sampling rates and channel counts (including the 3-channel layout that needs an in-band PCE).
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
for spec in 44100:1 48000:2 22050:2 8000:1 96000:1 7350:2 48000:3 48000:6 32000:8; do
    rate=${spec%%:*}
    channels=${spec##*:}
    ffmpeg -hide_banner -nostdin -loglevel error -y -f lavfi -i "sine=frequency=440:sample_rate=$rate" \
        -t 0.1 -ac "$channels" -c:a aac -b:a 32k -f adts "$out/sine-$rate-$channels.aac"
done
# A garbage-prefixed stream and a truncated one, to start from resync paths.
{ printf 'garbage\xff\xf1junk'; cat "$out/sine-44100-1.aac"; } > "$out/garbage-prefix.aac"
head -c 300 "$out/sine-48000-2.aac" > "$out/truncated.aac"
