#!/usr/bin/env bash
# Writes seed offers for FuzzWebRTCOffer into directory $1: a browser-like offer with H.264, RTX and
# Opus, one with only audio, and broken ones (no version line, truncated attributes, huge numbers).
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
printf 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0 1\r\nm=video 9 UDP/TLS/RTP/SAVPF 96 97 98\r\na=mid:0\r\na=recvonly\r\na=rtpmap:96 VP8/90000\r\na=rtpmap:97 H264/90000\r\na=fmtp:97 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f\r\na=rtpmap:98 rtx/90000\r\na=fmtp:98 apt=97\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111 0\r\na=mid:1\r\na=recvonly\r\na=rtpmap:111 opus/48000/2\r\n' > "$out/browser"
printf 'v=0\nm=audio 9 RTP/AVP 0 8 9\na=sendrecv\n' > "$out/audio-only"
printf 'm=video 9 RTP/AVP 96\na=rtpmap:96 H264/90000\n' > "$out/no-version"
printf 'v=0\r\nm=video 9 X 96 999 -1\r\na=rtpmap:\r\na=rtpmap:96\r\na=rtpmap:96 H264/\r\na=fmtp:96 ;;=;a=\r\na=rtpmap:9999999999999999999 x/1\r\n' > "$out/broken"
