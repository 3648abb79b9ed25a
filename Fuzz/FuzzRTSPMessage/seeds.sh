#!/usr/bin/env bash
# Writes seeds for FuzzRTSPMessage into directory $1: a split byte, then what a client sends
# (requests, interleaved frames, hostile lines).
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
seeds=(
    '\x00OPTIONS rtsp://127.0.0.1:8554/live RTSP/1.0\r\nCSeq: 1\r\n\r\nDESCRIBE rtsp://127.0.0.1:8554/live RTSP/1.0\r\nCSeq: 2\r\nAccept: application/sdp\r\n\r\n'
    '\x03SETUP rtsp://h/live/track0 RTSP/1.0\nCSeq: 3\nTransport: RTP/AVP/TCP;unicast;interleaved=0-1\n\n$\x01\x00\x04\x80\xc9\x00\x01PLAY rtsp://h/live RTSP/1.0\nCSeq: 4\nRange: npt=now-\n\n'
    '\x02SET_PARAMETER rtsp://h/live RTSP/1.0\r\nCSeq: 5\r\nContent-Length: 4\r\n\r\nab\r\n\r\n\r\nTEARDOWN * RTSP/1.0\r\nCSeq: 6\r\n\r\n'
    '\x01DESCRIBE rtsp://h/other RTSP/1.0\r\ncseq: 7\r\nContent-Length: 12a\r\n\r\n'
    '\x05GET / HTTP/1.1\r\nHost: x\r\n\r\n'
)
for index in "${!seeds[@]}"; do printf '%b' "${seeds[$index]}" > "$out/seed$index"; done
