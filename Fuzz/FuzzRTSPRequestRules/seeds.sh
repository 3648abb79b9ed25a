#!/usr/bin/env bash
# Writes seeds for FuzzRTSPRequestRules into directory $1: 16 bytes of sizes (received, body;
# little-endian, a first byte 0xff: received unknown), then a request, valid or hostile.
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
sizes='\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
seeds=(
    'DESCRIBE rtsp://127.0.0.1:8554/live RTSP/1.0\nCSeq: 1\nAccept: application/sdp\n'
    'DESCRIBE rtsp://127.0.0.1:8554/other RTSP/1.0\nCSeq: 2\n'
    'OPTIONS rtsp://127.0.0.1:8554/live RTSP/1.0\nCSeq: banana\n'
    'SETUP rtsp://127.0.0.1:8554/live/stream=0 RTSP/1.0\nTransport: RTP/AVP/TCP;interleaved=0-1\n'
    'DESCRIBE rtsp://h/sub RTSP/1.0\ncseq: 12345678901\nCSeq: 3\n'
)
for index in "${!seeds[@]}"; do printf '%b' "$sizes${seeds[$index]}" > "$out/seed$index"; done
