#!/usr/bin/env bash
# Counts that later work may lower but not raise (issue 44), against scripts/ceilings.txt:
#   concurrency-escapes   `@unchecked Sendable`, `nonisolated(unsafe)` and `@preconcurrency` in Sources
#   internal-public-types public declarations (types and members) in targets that are neither products nor re-exported
#                         (OnAirFFmpeg, OnAirGStreamer, OnAirHTTP, OnAirSRT, OnAirSDL): `package` is their word
#   public-top-level-types   the top-level public types `import OnAir` shows (scripts/public-api.py)
#   public-types-with-nested the same with nested public types
# A count below its ceiling prints a reminder to lower the ceiling in the same change.
# The public-… counts extract the symbol graphs from the last `swift build` (public-api.py
# --from-build: a few seconds; `swift package dump-symbol-graph` would take minutes): without a
# build they are skipped with a note, unless named on the command line (`check-ceilings.sh
# public-top-level-types …`, as .ci/run does after its build), which checks only the names given
# and fails on a count it cannot make.
set -euo pipefail
cd "$(dirname "$0")/.."
for name in "$@"; do
    grep -q "^$name " scripts/ceilings.txt || { echo "check-ceilings: no ceiling named $name" >&2; exit 1; }
done
# The "import OnAir" line of scripts/public-api.py: top-level and with-nested counts, or nothing.
surface=""
if [ $# -eq 0 ] || printf '%s\n' "$@" | grep -q '^public-'; then
    surface=$(python3 scripts/public-api.py --from-build 2>/dev/null |
        sed -n 's/^import OnAir *\([0-9]*\) top-level types *\([0-9]*\) with nested$/\1 \2/p' || true)
fi
public_api() { echo "$surface"; }
count() {
    case $1 in
    public-top-level-types)
        public_api | cut -d' ' -f1 ;;
    public-types-with-nested)
        public_api | cut -d' ' -f2 ;;
    concurrency-escapes)
        { grep -rE "@unchecked Sendable|nonisolated\(unsafe\)|@preconcurrency" Sources --include=*.swift || true; } | wc -l ;;
    internal-public-types)
        { grep -rE "^\s*public\b" Sources/OnAirFFmpeg Sources/OnAirGStreamer Sources/OnAirHTTP Sources/OnAirSRT \
            Sources/OnAirSDL --include=*.swift || true; } | wc -l ;;
    esac
}
status=0
while read -r name ceiling; do
    case $name in ''|\#*) continue ;; esac
    if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
    now=$(count "$name")
    if [ -z "$now" ]; then
        if [ $# -gt 0 ]; then
            echo "CI: $name cannot be counted: no build of OnAir to read (swift build)" >&2
            status=1
        else
            echo "ceilings: $name not checked: no build of OnAir to read (swift build)"
        fi
        continue
    fi
    if [ "$now" -gt "$ceiling" ]; then
        echo "CI: $name is $now, above its ceiling $ceiling (scripts/ceilings.txt)" >&2
        status=1
    elif [ "$now" -lt "$ceiling" ]; then
        echo "ceilings: $name is $now, below its ceiling $ceiling: lower it in scripts/ceilings.txt"
    fi
done <scripts/ceilings.txt
exit $status
