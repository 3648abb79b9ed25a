#!/usr/bin/env bash
# Runs the whole test suite: builds the release `onair` (scripts/build.sh; the command-line tests
# record and stream in real time, which a debug build cannot keep up with at 720p) unless
# ONAIR_EXECUTABLE already names one, builds the tests, then runs them in three lanes side by
# side, each one test at a time:
#   lane A: the suites in scripts/test-lane-a.txt, the ones that load the machine or measure time
#           closely (browsers, WebRTC players, 720p sync, Swift builds) — never two at once;
#   lane C: the suites in scripts/test-lane-c.txt, light ones long in real time, split off lane B
#           by measured time so that the three lanes end together;
#   lane B: everything else (unit suites, light loopback end-to-end tests);
# then the suites in scripts/test-solo.txt alone (those a busy machine made fail: synthetic key
# presses read back from the screen, WebRTC under loss, the RTSP players). Lines start with
# "A| ", "B| ", "C| " or "S| ". A lane that prints nothing for 10 minutes is stopped, naming the
# tests it was in (test-watchdog.py). At the end: the time and CPU per suite (test-watchdog.py
# measures each), each lane-A and solo suite with the reason its list gives and what this run
# measured of it, and the skipped tests.
#
#   bash scripts/test.sh                 # the suite, as CI runs it
#   bash scripts/test.sh --long          # plus the long tier (soaks and loads, ONAIR_LONG_TESTS=1)
#   bash scripts/test.sh --filter Probe  # any other arguments: one lane, passed to `swift test`
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--long" ]; then
    export ONAIR_LONG_TESTS=1
    shift
fi
if [ -z "${ONAIR_EXECUTABLE:-}" ]; then
    ONAIR_EXECUTABLE="$(bash scripts/build.sh)"
fi
export ONAIR_EXECUTABLE
# In the fixed environment .ci/run's build had. .ci/run, which has just built, says so with
# ONAIR_TESTS_BUILT=1: SwiftPM 6.3 compiled everything once more in the build after a fresh one
# even in the same environment (122 s in the fresh-clone run of 01d0b94; here: 132 s, 116 s,
# then 0.16 s for three builds in a row).
if [ "${ONAIR_TESTS_BUILT:-}" != 1 ]; then
    bash scripts/build-tests.sh >&2
fi
logs=$(mktemp -d /tmp/onair-test-logs.XXXXXX)
watch=(python3 scripts/test-watchdog.py --silence 600)
set +e
if [ $# -gt 0 ]; then
    "${watch[@]}" -- swift test --skip-build --no-parallel "$@" 2>&1 | tee "$logs/all"
    status=${PIPESTATUS[0]}
else
    # A list's suites as one regular expression over test identifiers (Target.Suite/test()).
    # A line's "# reason" is dropped.
    suites() { sed -E 's/#.*$//; s/^\s+|\s+$//g' "$1" | grep -v '^$' | sed -E 's/\./\\./g; s|$|/|' | paste -sd'|'; }
    lane_a=$(suites scripts/test-lane-a.txt)
    lane_c=$(suites scripts/test-lane-c.txt)
    solo=$(suites scripts/test-solo.txt)
    # The test bundle is run directly: two `swift test` at once would wait on each other's lock
    # of .build.
    bundle="$(swift build --show-bin-path)/OnAirPackageTests.xctest"
    tests=(env NO_COLOR=1 "$bundle" --testing-library swift-testing --no-parallel)
    "${watch[@]}" --prefix "A| " -- "${tests[@]}" --filter "($lane_a)" >"$logs/a" 2>&1 &
    a=$!
    "${watch[@]}" --prefix "B| " -- "${tests[@]}" --skip "($lane_a|$lane_c|$solo)" >"$logs/b" 2>&1 &
    b=$!
    "${watch[@]}" --prefix "C| " -- "${tests[@]}" --filter "($lane_c)" >"$logs/c" 2>&1 &
    c=$!
    tail -q -n +1 -f "$logs/a" "$logs/b" "$logs/c" &
    follower=$!
    wait "$a"
    status_a=$?
    wait "$b"
    status_b=$?
    wait "$c"
    status_c=$?
    sleep 1
    kill "$follower" 2>/dev/null
    # Then the suites of scripts/test-solo.txt with nothing beside them.
    "${watch[@]}" --prefix "S| " -- "${tests[@]}" --filter "($solo)" 2>&1 | tee "$logs/s"
    status_s=${PIPESTATUS[0]}
    cat "$logs/a" "$logs/b" "$logs/c" "$logs/s" >"$logs/all"
    echo "lane A: exit $status_a; lane B: exit $status_b; lane C: exit $status_c; solo: exit $status_s"
    for status in "$status_a" "$status_b" "$status_c" "$status_s"; do
        [ "$status" = 0 ] || break
    done
fi
set -e
# The time per suite and the skipped tests with their reasons, then swift test's closing lines
# again, so that they stay the last lines of the run.
python3 scripts/test-summary.py "$logs/all" --reasons scripts/test-lane-a.txt scripts/test-solo.txt
grep -E "Test run with [0-9]+ test" "$logs/all" || true
rm -rf "$logs"
exit "$status"
