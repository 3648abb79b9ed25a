#!/usr/bin/env bash
# Writes seeds for FuzzRTSPAuthorization into directory $1: a byte of flags (bit 0 Basic allowed,
# bits 1-2 the method: DESCRIBE, PLAY, SETUP, none), a byte of time (2 s a step), then
# Authorization values separated by newlines. The harness's keyring has issued nonce
# 00000000000000010000000000000002; the responses below are its keys' for DESCRIBE and PLAY of
# rtsp://127.0.0.1:8554/live.
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
nonce=00000000000000010000000000000002
digest() { printf 'Digest username="onair", realm="onair", nonce="%s", uri="rtsp://127.0.0.1:8554/live", response="%s"%s' "$nonce" "$1" "${2:-}"; }
write() { local name=$1 flags=$2; shift 2; { printf "$flags"; printf '%s' "$@"; } > "$out/$name"; }
write describe-first '\x00\x01' "$(digest 1551f347b752048a7579ffc944a5c122)"
write play-second '\x02\x01' "$(digest 71ac50b5e14dbadb80e16128fb422dda)"
write expired '\x00\x97' "$(digest 1551f347b752048a7579ffc944a5c122)"
write md5 '\x00\x01' "$(digest 08dc89109b87ba140f0b62357202b83c ', algorithm=MD5')"
write qop '\x00\x01' "$(digest 08dc89109b87ba140f0b62357202b83c ', qop=auth, nc=00000001, cnonce="0a4f113b"')"
write after-junk '\x00\x01' 'Digest ,' $'\n' 'Bearer x' $'\n' "$(digest 1551f347b752048a7579ffc944a5c122)"
write basic '\x01\x01' 'Basic b25haXI6YTpi' $'\n' 'basic b25haXI6Zmlyc3Qtc2VjcmV0'
write basic-closed '\x00\x01' 'Basic b25haXI6Zmlyc3Qtc2VjcmV0'
write escapes '\x00\x01' 'dIgEsT UserName = "on\"air\\" ,realm=onair,	nonce="" , uri=rtsp://h/x'
write broken '\x00\x01' 'Digest username="onair' $'\n' 'Digest a=1,,b=2' $'\n' 'Basic !!!'
