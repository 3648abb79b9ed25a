#!/usr/bin/env bash
# Builds one libFuzzer target (or all) and runs it seeded with real streams made by ffmpeg.
#   scripts/fuzz.sh [-t SECONDS] [-j JOBS] [TARGET|all] [RUNS]
#   e.g. scripts/fuzz.sh FuzzADTS 10000000; scripts/fuzz.sh -t 3600 -j 2 FuzzAnnexB
# -t SECONDS stops each target after that time (libFuzzer's -max_total_time), whichever of it and
# RUNS comes first (with -t and no RUNS, the time alone bounds it). -j JOBS runs that many fuzzer
# processes side by side on one corpus (-jobs/-workers; each stops at the time budget, and RUNS
# bounds each); their logs are Fuzz/artifacts/<TARGET>.log.<n>. Run it niced (nice -n 19) on a
# shared machine.
# Targets live in Fuzz/<TARGET>/; Fuzz/<TARGET>/seeds.sh (if present) writes seed files into
# the directory given as its first argument. Corpora and crash artifacts go to Fuzz/corpus and
# Fuzz/artifacts (ignored by git). The last line printed per target is
#   "<TARGET>: N runs, no crash" — or the script exits non-zero with libFuzzer's report.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=0
jobs=1
while getopts "t:j:" option; do
    case $option in
        t) seconds=$OPTARG ;;
        j) jobs=$OPTARG ;;
        *) echo "usage: $0 [-t SECONDS] [-j JOBS] [TARGET|all] [RUNS]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
target=${1:-all}
if [ "$seconds" -gt 0 ]; then runs=${2:--1}; else runs=${2:-1000000}; fi
if [ "$target" = all ]; then
    targets=$(cd Fuzz && ls -d Fuzz*/ | tr -d /)
else
    targets=$target
fi
scratch=.build-fuzz
for t in $targets; do
    # On Linux SwiftPM renames an executable's entry point to <Target>_main and links it with
    # --defsym main=<Target>_main. A fuzz target has no entry point of its own (libFuzzer's driver
    # is the program), so supply <Target>_main and let it hand over to LLVMFuzzerRunDriver.
    entry_dir="$scratch/fuzz-entry"
    mkdir -p "$entry_dir"
    cat > "$entry_dir/$t-main.c" <<ENTRY
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t));
int ${t}_main(int argc, char **argv) { return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput); }
ENTRY
    clang -c -O1 "$entry_dir/$t-main.c" -o "$entry_dir/$t-main.o"
    ONAIR_FUZZ=1 swift build -c release --scratch-path "$scratch" --product "$t" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xlinker "$entry_dir/$t-main.o" >&2
    corpus=Fuzz/corpus/$t
    seeds=Fuzz/corpus/$t-seeds
    mkdir -p "$corpus" "$seeds" Fuzz/artifacts
    if [ -x "Fuzz/$t/seeds.sh" ] && [ -z "$(ls -A "$seeds")" ]; then
        "Fuzz/$t/seeds.sh" "$seeds" >&2
    fi
    artifacts=$PWD/Fuzz/artifacts
    log=$artifacts/$t.log
    options=(-runs="$runs" -max_len=65536 -rss_limit_mb=4096 -artifact_prefix="$artifacts/$t-")
    [ "$seconds" -gt 0 ] && options+=(-max_total_time="$seconds")
    started=$(date +%s)
    if [ "$jobs" -gt 1 ]; then
        # libFuzzer's fork-less parallel mode: JOBS processes, each logging to fuzz-<n>.log in the
        # working directory; run it in Fuzz/artifacts so the logs land there.
        rm -f "$artifacts"/fuzz-*.log "$log".*
        status=0
        (cd "$artifacts" && "$OLDPWD/$scratch/release/$t" "${options[@]}" -jobs="$jobs" -workers="$jobs" \
            "$OLDPWD/$corpus" "$OLDPWD/$seeds" 2>"$log") || status=$?
        for n in $(seq 0 $((jobs - 1))); do
            if [ -f "$artifacts/fuzz-$n.log" ]; then mv "$artifacts/fuzz-$n.log" "$log.$n"; fi
        done
        logs=$(ls "$log".* 2>/dev/null || true)
    else
        status=0
        "$scratch/release/$t" "${options[@]}" "$corpus" "$seeds" 2>"$log" || status=$?
        logs=$log
    fi
    elapsed=$(( $(date +%s) - started ))
    if [ "$status" -ne 0 ] || grep -q 'ERROR: libFuzzer\|SUMMARY: .*Sanitizer\|deadly signal' $logs; then
        for l in $logs; do tail -n 60 "$l" >&2; done
        echo "$t: CRASH (see $logs)" >&2
        exit 1
    fi
    # Runs: the sum over the jobs of each one's last "#N" status line; coverage: the last cov:/ft:
    # seen in any of them (they share the corpus, so the highest is the union's lower bound).
    done_runs=0
    for l in $logs; do
        n=$(grep -oE '^#[0-9]+' "$l" | tail -n1 | tr -d '#')
        done_runs=$((done_runs + ${n:-0}))
    done
    coverage=$(grep -hoE 'cov: [0-9]+ ft: [0-9]+' $logs | sort -t' ' -k2,2n -k4,4n | tail -n1)
    echo "$t: $done_runs runs in ${elapsed} s ($jobs job(s)), $coverage, no crash"
done
