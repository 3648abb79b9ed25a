#!/usr/bin/env bash
# Writes seeds for FuzzPlaybackQuery into directory $1: a query value, a Range header and a segment
# name per file (newline-separated), valid and hostile.
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
i=0
while IFS= read -r seed; do
    printf '%b' "$seed" > "$out/seed$i"
    i=$((i + 1))
done <<'SEEDS'
2026-12-02T05:31:45Z\nbytes=0-99\nrec/live/2026-12-02/05-31-45-250000
2026-12-02T06:31:45.123456+01:00\nbytes=-500\nlive_1796189505
../../etc\nbytes=5-1\n20261202053145+0100
2026-02-30T25:61:61Z\nbytes=0-,1-2\nrec/live/9999-99-99/99-99-99-999999
live\nbytes=99999999999999999999-\n%s
hls\nbytes=0-1023\n0123456789abcdef.mp4
9f0a\nbytes=1024-\n../9f0a.mp4
SEEDS
