#!/usr/bin/env bash
# Quick start: installs what OnAir needs, builds it, and runs the main job: a 5-second recording
# from the synthetic camera and microphone to an MP4, which OnAir then checks for A/V sync.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
onair=$(bash scripts/build.sh)
out=${TMPDIR:-/tmp}/onair-demo
mkdir -p "$out"
echo "\$ onair record --duration 5 --size 1280x720 -o $out/demo.mp4"
"$onair" record --duration 5 --size 1280x720 -o "$out/demo.mp4"
echo
echo "\$ onair probe $out/demo.mp4"
"$onair" probe "$out/demo.mp4"
echo
echo "\$ onair probe --sync $out/demo.mp4"
"$onair" probe --sync "$out/demo.mp4" | tail -n 1
echo
echo "Play it with:  $onair play $out/demo.mp4   (or any player: ffplay, VLC, a browser)"
