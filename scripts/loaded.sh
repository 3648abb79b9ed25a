#!/usr/bin/env bash
# Runs the README's test command (scripts/test.sh) several times in a row on a fresh clone of
# this repository's HEAD while a CPU-heavy process runs beside it: an ffmpeg H.264 encode of a
# test pattern in a loop, at normal priority. Stops at the first failing run. With --ci each run
# is the whole of CI instead (.ci/run: set-up, build, lint, checks and the tests), as issue 44's
# "under 30 minutes beside scripts/loaded.sh" measures it.
#
#   scripts/loaded.sh [RUNS]          (default 5)
#   scripts/loaded.sh --ci [RUNS]     (default 1)
#
# Environment: HOG_THREADS (ffmpeg/x264 threads of the hog, default 1: one core of load, the
# rest of the machine for the suite), WORK (where the clone and the logs go, default a new
# directory under /tmp). Prints one line per run: its result, duration and test count.
set -euo pipefail
command=(bash scripts/test.sh)
default_runs=5
if [ "${1:-}" = "--ci" ]; then
    command=(bash .ci/run)
    default_runs=1
    shift
fi
runs=${1:-$default_runs}
threads=${HOG_THREADS:-1}
repo="$(cd "$(dirname "$0")/.." && pwd)"
work=${WORK:-$(mktemp -d /tmp/onair-loaded.XXXXXX)}
mkdir -p "$work"
git clone -q "$repo" "$work/clone"
commit=$(git -C "$work/clone" rev-parse --short HEAD)
echo "loaded runs of ${command[*]} at $commit in $work (hog: ffmpeg x264, $threads thread(s))"

hog() {
    while true; do
        ffmpeg -nostdin -hide_banner -loglevel error -f lavfi -i testsrc2=size=1280x720:rate=30 -t 60 \
            -c:v libx264 -preset medium -threads "$threads" -f null - || sleep 1
    done
}
hog &
hog_pid=$!
trap 'kill "$hog_pid" 2>/dev/null; pkill -P "$hog_pid" 2>/dev/null || true' EXIT

for run in $(seq 1 "$runs"); do
    log="$work/run-$run.log"
    started=$(date +%s)
    set +e
    (cd "$work/clone" && "${command[@]}") >"$log" 2>&1
    status=$?
    set -e
    seconds=$(( $(date +%s) - started ))
    summary=$(grep -E "Test run with [0-9]+ tests" "$log" | tail -1 || true)
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    if [ "$status" -eq 0 ]; then
        echo "run $run: passed in ${seconds} s (load $load): $summary"
    else
        echo "run $run: FAILED (exit $status) after ${seconds} s (load $load): $summary"
        grep -E "^✘ Test [^r]" "$log" | head -20 || true
        echo "log: $log"
        exit 1
    fi
done
echo "all $runs runs passed"
