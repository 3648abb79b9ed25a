#!/usr/bin/env bash
# Writes seeds for FuzzSRTStreamID into directory $1: one stream id per file, valid and hostile.
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
i=0
while IFS= read -r seed; do
    printf '%b' "$seed" > "$out/seed$i"
    i=$((i + 1))
done <<'SEEDS'
sub
live
#!::r=sub,m=request
#!::m=request,r=sub,u=someone
#!::r=,r==,=r,,,
#!::
#!::r=sub\x00extra
\xff\xfe#!::r=\xc3\x28
SEEDS
