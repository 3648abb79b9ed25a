#!/usr/bin/env bash
# Runs the whole test suite: builds the release `onair` (scripts/build.sh; the command-line tests
# record and stream in real time, which a debug build cannot keep up with at 720p), then runs
# every test one at a time so that real-time tests get the CPU they measure. Extra arguments go
# to `swift test` (e.g. --filter Probe).
set -euo pipefail
cd "$(dirname "$0")/.."
ONAIR_EXECUTABLE="$(bash scripts/build.sh)"
export ONAIR_EXECUTABLE
swift test --no-parallel "$@"
