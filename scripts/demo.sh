#!/usr/bin/env bash
# Quick start: installs what OnAir needs, builds it, and runs the main job on a sample.
# For now the main job is `onair probe`: a short H.264 + AAC clip is made with ffmpeg and
# OnAir reads it with its own bitstream parsers.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --product onair >&2
onair=$(swift build -c release --show-bin-path)/onair
out=${TMPDIR:-/tmp}/onair-demo
mkdir -p "$out"
ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=1280x720:rate=30 \
    -f lavfi -i sine=frequency=1000:sample_rate=48000 -t 5 -ac 2 \
    -c:v libx264 -preset veryfast -g 60 -c:a aac -b:a 128k "$out/sample.mp4"
echo "\$ onair probe $out/sample.mp4"
"$onair" probe "$out/sample.mp4"
echo
echo "\$ onair probe --json $out/sample.mp4"
"$onair" probe --json "$out/sample.mp4"
