#!/usr/bin/env bash
# Writes seeds for FuzzSRTStreamID into directory $1: one stream id per file, valid and hostile.
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
seeds=(
    'sub' 'live' '#!::r=sub,m=request' '#!::m=request,r=sub,u=someone' '#!::r=,r==,=r,,,' '#!::'
    '#!::r=sub\x00extra' '\xff\xfe#!::r=\xc3\x28'
)
for index in "${!seeds[@]}"; do printf '%b' "${seeds[$index]}" > "$out/seed$index"; done
