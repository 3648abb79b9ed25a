#!/usr/bin/env bash
# Builds the package with its tests (debug) in a fixed environment: what .ci/run and
# scripts/test.sh both build through. SwiftPM 6.3 builds everything again when an environment
# variable differs from its last build (`FOO=2 swift build --build-tests` after a plain one
# recompiled 626 files), and variables such as SHLVL and `_` differ between a script and the
# script it calls. (The build right after a fresh one also recompiled everything once in the same
# environment: .ci/run tells scripts/test.sh not to build again, ONAIR_TESTS_BUILT=1.)
#   bash scripts/build-tests.sh [swift build options]
set -euo pipefail
cd "$(dirname "$0")/.."
exec env -i PATH="$PATH" HOME="${HOME:-/tmp}" TMPDIR="${TMPDIR:-/tmp}" LANG=C.UTF-8 swift build --build-tests "$@"
