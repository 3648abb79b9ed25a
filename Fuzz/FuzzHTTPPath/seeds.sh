#!/usr/bin/env bash
# Writes seed request paths for FuzzHTTPPath into directory $1: served paths, traversal attempts,
# empty segments and control bytes.
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
i=0
for path in / /live.ts /live.mp4 /live.m3u8 /segment_12.ts /stats.json /../etc/passwd /a/../b //x /./x '/a\b' /a/b/c/; do
    printf '%s' "$path" > "$out/seed$i"
    i=$((i + 1))
done
printf '/a\0b' > "$out/seed-nul"
