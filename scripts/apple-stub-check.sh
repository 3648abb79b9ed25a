#!/usr/bin/env bash
# STUB CHECK (not an SDK build): type-checks the Apple adapter (Sources/OnAirApple, portable core and
# Adapter/ files together) on Linux against Tests/AppleAPIStubs — Swift declarations of exactly the
# Apple APIs the adapter uses, each taken from its documentation page. It catches typos, argument
# labels, optionality, pointer kinds and Sendable mistakes; it cannot catch differences between the
# stubs and the real SDK. Only a Mac build (scripts/apple-check.sh) verifies the adapter.
#   scripts/apple-stub-check.sh        (builds OnAirLive, and with it OnAirCore and OnAirBitstream, for their modules)
# With ONAIR_STUB_CHECK_MODULES=<dir> it builds nothing and takes OnAirCore/OnAirBitstream/OnAirLive from that
# directory (how OnAirAppleTests' StubCheckTests runs it, inside `swift test`).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "STUB CHECK (not an SDK build): OnAirApple against Tests/AppleAPIStubs"
if [ -n "${ONAIR_STUB_CHECK_MODULES:-}" ]; then
    modules=$ONAIR_STUB_CHECK_MODULES
else
    swift build --target OnAirLive >&2
    modules=$(swift build --show-bin-path)/Modules
fi
# `package` declarations need SwiftPM's package name (the package directory's identity).
package_name=$(grep -so '"-package-name","[^"]*"' .build/debug.yaml | head -1 | cut -d'"' -f4 || true)
# Without a build plan to read it from: SwiftPM's identity of a root package, its directory's name.
[ -n "$package_name" ] || package_name=$(basename "$PWD" | tr '[:upper:]' '[:lower:]')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
adapter=$(find Sources/OnAirApple/Adapter -name '*.swift' | sort)
# Twice: the UIKit branch of PlaybackView, then (stubs and adapter with ONAIR_APPLE_STUBS_APPKIT) the AppKit one.
for platform in UIKit AppKit; do
    flags=(-D ONAIR_APPLE_STUBS)
    [ "$platform" = AppKit ] && flags+=(-D ONAIR_APPLE_STUBS_APPKIT)
    rm -rf "$work"/*.swiftmodule
    swiftc -parse-as-library -swift-version 6 "${flags[@]}" -module-name AppleAPIStubs -emit-module \
        -emit-module-path "$work/AppleAPIStubs.swiftmodule" Tests/AppleAPIStubs/AppleAPIStubs.swift
    swiftc -typecheck -parse-as-library -swift-version 6 -warnings-as-errors -module-name OnAirApple -package-name "$package_name" \
        "${flags[@]}" -I "$work" -I "$modules" $(find Sources/OnAirApple -name '*.swift' | sort)
    echo "STUB CHECK: the adapter type-checks with the $platform view stubs"
done
echo "STUB CHECK passed: $(echo "$adapter" | wc -l) adapter files type-check against $(grep -c '/// Page:' Tests/AppleAPIStubs/AppleAPIStubs.swift) stub declarations (not an SDK build)"
