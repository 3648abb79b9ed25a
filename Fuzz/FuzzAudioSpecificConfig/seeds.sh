#!/usr/bin/env bash
# Writes seed AudioSpecificConfigs for FuzzAudioSpecificConfig into directory $1: the configs
# ffmpeg writes into MP4 (encoder extradata, with the 0x2b7 sync extension, and ADTS-to-MP4
# conversions, including a PCE), plus hand-made HE-AAC, HE-AACv2, LD, ELD and explicit-rate ones.
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
extradata() {  # prints the extradata of the first audio stream of $1 as raw bytes
    ffprobe -v error -select_streams a:0 -show_entries stream=extradata -show_data -of default=nw=1 "$1" \
        | sed -n 's/^[0-9a-f]\{8\}: //p' | cut -c1-39 | tr -d ' \n' | xxd -r -p
}
for spec in 44100:2 48000:1 8000:1 96000:2 48000:3 48000:6 32000:8 7350:1; do
    rate=${spec%%:*}
    channels=${spec##*:}
    ffmpeg -hide_banner -nostdin -loglevel error -y -f lavfi -i "sine=sample_rate=$rate" -t 0.1 \
        -ac "$channels" -c:a aac "$work/enc.m4a"
    extradata "$work/enc.m4a" > "$out/encoder-$rate-$channels.asc"
    ffmpeg -hide_banner -nostdin -loglevel error -y -f lavfi -i "sine=sample_rate=$rate" -t 0.1 \
        -ac "$channels" -c:a aac -f adts "$work/in.aac"
    ffmpeg -hide_banner -nostdin -loglevel error -y -i "$work/in.aac" -c copy "$work/remux.m4a"
    extradata "$work/remux.m4a" > "$out/remux-$rate-$channels.asc"
done
printf '\x2b\x92\x08\x00' > "$out/he-aac-explicit.asc"
printf '\xeb\x09\x88\x00' > "$out/he-aac-v2-explicit.asc"
printf '\x13\x08\x56\xe5\x98' > "$out/he-aac-sync.asc"
printf '\xba\x14\x00' > "$out/ld.asc"
printf '\xf8\xf0\x20\x00' > "$out/eld.asc"
printf '\x17\x80\x3e\x80\x10' > "$out/explicit-rate.asc"
