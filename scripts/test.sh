#!/usr/bin/env bash
# Runs the whole test suite: builds the release `onair` (scripts/build.sh; the command-line tests
# record and stream in real time, which a debug build cannot keep up with at 720p), then runs
# every test one at a time so that real-time tests get the CPU they measure. Extra arguments go
# to `swift test` (e.g. --filter Probe). At the end: the time per suite and the skipped tests.
set -euo pipefail
cd "$(dirname "$0")/.."
ONAIR_EXECUTABLE="$(bash scripts/build.sh)"
export ONAIR_EXECUTABLE
log=$(mktemp /tmp/onair-test-log.XXXXXX)
set +e
swift test --no-parallel "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# The time per suite and the skipped tests with their reasons, then swift test's own closing line
# again, so that it stays the last line of the run.
python3 scripts/test-summary.py "$log"
grep -E "Test run with [0-9]+ test" "$log" | tail -1 || true
rm -f "$log"
exit "$status"
