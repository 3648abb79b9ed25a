#!/usr/bin/env bash
# Writes seed responses for FuzzHTTPResponse into directory $1: a WHIP 201 with an SDP answer and a
# Location, a 401, a head split before its blank line, and broken ones (bad status, header without a
# name, negative Content-Length, bare LF line ends).
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
printf 'HTTP/1.1 201 Created\r\nContent-Type: application/sdp\r\nLocation: /whip/session/1\r\nContent-Length: 5\r\n\r\nv=0\r\n' > "$out/created"
printf 'HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n' > "$out/unauthorized"
printf 'HTTP/1.1 200 OK\r\nLocation: /x\r\n' > "$out/unfinished"
printf 'HTTP/1.1 2x1 Created\r\n: nameless\r\nContent-Length: -1\r\n\r\n' > "$out/broken"
printf 'HTTP/1.0 204 No Content\nLocation: /y\n\n' > "$out/bare-lf"
