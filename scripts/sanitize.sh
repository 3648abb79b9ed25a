#!/usr/bin/env bash
# Runs tests under a sanitizer: scripts/sanitize.sh thread|address [swift test arguments…]
#
# Builds the package and the tests with -sanitize=SANITIZER in their own build directory
# (.build/sanitize-SANITIZER), points the command-line tests at an `onair` built the same way but
# optimized (-c release: the command-line tests record, stream and play in real time, which a
# debug build under a sanitizer cannot keep up with at 720p), and runs the tests one at a time;
# any report fails the run. With no further arguments it runs
# the unit-test targets (OnAirTests, OnAirFFmpegTests, OnAirBitstreamTests); pass e.g.
# `--filter OnAirCLITests.RecordCommandTests` to choose, or `--all` for the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizer=${1:-}
case "$sanitizer" in
    thread|address) shift ;;
    *) echo "usage: scripts/sanitize.sh thread|address [--all | swift test arguments…]" >&2; exit 2 ;;
esac
build=".build/sanitize-$sanitizer"
flags=(--sanitize="$sanitizer" --build-path "$build")
swift build "${flags[@]}" -c release --product onair
ONAIR_EXECUTABLE="$(swift build "${flags[@]}" -c release --show-bin-path)/onair"
export ONAIR_EXECUTABLE
# A report stops the process with a failing status instead of scrolling past.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
export ASAN_OPTIONS="detect_leaks=0 halt_on_error=1 ${ASAN_OPTIONS:-}"
if [ $# -eq 0 ]; then
    set -- --filter '^(OnAirTests|OnAirFFmpegTests|OnAirBitstreamTests)\.'
elif [ "$1" = "--all" ]; then
    shift
fi
swift test "${flags[@]}" --no-parallel "$@"
