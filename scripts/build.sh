#!/usr/bin/env bash
# Builds the release `onair` and prints its path on stdout (the build's own output goes to
# stderr). The Swift runtime and Foundation are linked in statically (--static-swift-stdlib):
# the binary runs on a machine without the Swift toolchain, and a process maps and touches no
# shared Swift libraries, about 5 MB less resident memory (bench/encode_vs_ffmpeg.sh). Every
# script that needs the release `onair` (tests, demo, benches) builds it here, so they all
# measure the same binary.
#
#   onair=$(scripts/build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib)
swift build "${flags[@]}" --product onair >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/onair"
