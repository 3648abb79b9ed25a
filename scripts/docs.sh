#!/usr/bin/env bash
# Builds the API documentation of the OnAir library with the toolchain's own DocC (no package
# plugin is fetched): the build emits the modules' symbol graphs, and `docc convert` turns them
# and the catalog Sources/OnAir/OnAir.docc into a documentation archive in .build/docs
# (OnAir.doccarchive; `docc preview` or any static web server shows it). Any DocC warning (an
# undocumented symbol is not one; a broken link, a missing or badly formed article is) fails the
# script (--warnings-as-errors). Extra arguments go to `docc convert`, e.g.
#   scripts/docs.sh --experimental-documentation-coverage --coverage-summary-level brief
# The build has its own scratch directory (.build/docs-build), so it leaves the ordinary build's
# flags, and so its incremental state, alone.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build/docs-build
graphs=$scratch/symbol-graphs
output=.build/docs
# Not emptied between runs: an incremental build writes the graphs of the modules it compiles only.
mkdir -p "$graphs"
swift build --scratch-path "$scratch" --target OnAir \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" >&2
# OnAir's own graph and its extensions of other modules' types (OnAir@Module.symbols.json); the
# graphs of the modules it is built from are left out, one module per catalog. OnAirCore and
# OnAirBitstream, which OnAir re-exports, appear in OnAir's graph. The re-exported modules'
# members that implement a protocol requirement (description, write(_:), finish()) carry comments
# from a module other than OnAir, which DocC takes for inherited and replaces with "Inherited
# from …" unless --enable-inherited-docs is given (which also shows the standard library's text
# for synthesized members such as !=, hash(into:) and init(from:)).
selected=$scratch/symbol-graphs-onair
rm -rf "$selected"
mkdir -p "$selected"
cp "$graphs"/OnAir.symbols.json "$selected"/
cp "$graphs"/OnAir@*.symbols.json "$selected"/ 2>/dev/null || true
docc=$(command -v docc || true)
if [ -z "$docc" ]; then
    docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
fi
[ -x "$docc" ] || { echo "docs: docc not found beside swift ($docc)" >&2; exit 1; }
rm -rf "$output"
mkdir -p "$output"
"$docc" convert Sources/OnAir/OnAir.docc \
    --additional-symbol-graph-dir "$selected" \
    --fallback-display-name OnAir --fallback-bundle-identifier org.onair.OnAir \
    --enable-inherited-docs \
    --output-path "$output/OnAir.doccarchive" \
    --warnings-as-errors "$@"
echo "docs: $output/OnAir.doccarchive" >&2
