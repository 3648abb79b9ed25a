#!/usr/bin/env bash
# Builds one libFuzzer target (or all) and runs it seeded with real streams made by ffmpeg.
#   scripts/fuzz.sh [TARGET|all] [RUNS]      e.g. scripts/fuzz.sh FuzzADTS 1000000
# Targets live in Fuzz/<TARGET>/; Fuzz/<TARGET>/seeds.sh (if present) writes seed files into
# the directory given as its first argument. Corpora and crash artifacts go to Fuzz/corpus and
# Fuzz/artifacts (ignored by git). The last line printed per target is
#   "<TARGET>: N runs, no crash" — or the script exits non-zero with libFuzzer's report.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-all}
runs=${2:-1000000}
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
    log=Fuzz/artifacts/$t.log
    "$scratch/release/$t" -runs="$runs" -max_len=65536 -rss_limit_mb=4096 \
        -artifact_prefix="Fuzz/artifacts/$t-" "$corpus" "$seeds" 2>"$log" || {
        tail -n 60 "$log" >&2
        echo "$t: CRASH (see $log)" >&2
        exit 1
    }
    done_runs=$(grep -oE 'Done [0-9]+ runs' "$log" | tail -n1 | grep -oE '[0-9]+' || echo "?")
    echo "$t: $done_runs runs, no crash"
done
