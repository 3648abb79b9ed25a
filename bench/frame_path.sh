#!/usr/bin/env bash
# The files one video frame passes: a coverage build of `onair` (its own scratch directory,
# .build/frame-path) records a synthetic picture-only stream of 4 s and of 8 s (--fast, 320x240,
# 30 fps) to a file and to udp://127.0.0.1; a source file counts when one of its functions ran at
# least 0.9 × the 120 frames more in the longer run (llvm-cov export). Prints the files and their
# count per output kind.
#   bench/frame_path.sh            # both kinds
#   KINDS=file bench/frame_path.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build/frame-path
swift build --scratch-path "$scratch" --product onair \
    -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping >&2
bin=$scratch/debug/onair
tools="$(dirname "$(readlink -f "$(command -v swift)")")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port=$((40000 + RANDOM % 20000))
for kind in ${KINDS:-file udp}; do
    for seconds in 4 8; do
        if [ "$kind" = file ]; then output="$work/x.mp4"; else output="udp://127.0.0.1:$port?pkt_size=1316"; fi
        LLVM_PROFILE_FILE="$work/$kind-$seconds.profraw" "$bin" record --video synthetic --fast \
            --duration "$seconds" --size 320x240 --fps 30 -o "$output" > /dev/null 2>&1
        "$tools/llvm-profdata" merge -o "$work/$kind-$seconds.profdata" "$work/$kind-$seconds.profraw"
        "$tools/llvm-cov" export -skip-expansions "$bin" -instr-profile="$work/$kind-$seconds.profdata" \
            > "$work/$kind-$seconds.json" 2> /dev/null
    done
    echo "== capture → $kind"
    python3 - "$work/$kind-4.json" "$work/$kind-8.json" <<'PY'
import json, sys
def counts(path):
    return {f['name']: (f['count'], f['filenames'][0]) for f in json.load(open(path))['data'][0]['functions']}
short, long = counts(sys.argv[1]), counts(sys.argv[2])
files = set()
for name, (count, file) in long.items():
    if '/Sources/' in file and count - short.get(name, (0, file))[0] >= 0.9 * 120:
        files.add(file[file.index('/Sources/') + 9:])
for file in sorted(files):
    print(' ', file)
print('files:', len(files))
PY
done
