#!/usr/bin/env bash
# APPLE-SHAPE CHECK (Linux toolchain, not an SDK build): type-checks what a macOS or iOS build of the
# package compiles, as far as Linux can tell — with none of the Linux-only modules in sight. OnAir is
# compiled against OnAirCore, OnAirBitstream, OnAirLive and OnAirApple alone (so every
# `#if canImport(OnAirFFmpeg)`-style branch is off), then the test targets built on Apple platforms
# (OnAirTests, OnAirAppleTests, OnAirBitstreamTests) and the `onair` stand-in, each without the files
# wrapped whole in `#if os(Linux)`. It catches a file that uses a Linux-only type (re-exported by
# OnAir on Linux) without its guard, which scripts/check-platform-guards.py cannot see. It cannot
# catch what differs on Apple platforms: Darwin instead of Glibc, Foundation's differences, `#if
# os(Linux)` blocks inside a file (taken here), the Apple adapter (scripts/apple-stub-check.sh).
#   scripts/apple-shape-check.sh      (builds the modules it needs first; about a minute)
set -euo pipefail
cd "$(dirname "$0")/.."
echo "APPLE-SHAPE CHECK (Linux toolchain, not an SDK build): OnAir and the Apple-built test targets without Linux-only modules"
for target in OnAirLive OnAirApple OnAirTestSupport; do swift build --target "$target" >&2; done
built=$(swift build --show-bin-path)/Modules
package_name=$(grep -so '"-package-name","[^"]*"' .build/debug.yaml | head -1 | cut -d'"' -f4 || true)
[ -n "$package_name" ] || package_name=$(basename "$PWD" | tr '[:upper:]' '[:lower:]')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for module in OnAirCore OnAirBitstream OnAirLive OnAirApple OnAirTestSupport; do
    cp -R "$built/$module.swiftmodule" "$work/"
done
# The files of a folder that an Apple build compiles: all but those wrapped whole in #if os(Linux).
apple_files() { find "$1" -name '*.swift' | sort | while read -r file; do [ "$(head -1 "$file")" = "#if os(Linux)" ] || echo "$file"; done; }
swift_check() { swiftc -parse-as-library -swift-version 6 -warnings-as-errors -package-name "$package_name" -I "$work" "$@"; }
swift_check -emit-module -enable-testing -module-name OnAir -emit-module-path "$work/OnAir.swiftmodule" $(apple_files Sources/OnAir)
echo "OnAir: $(apple_files Sources/OnAir | wc -l) files"
swift_check -typecheck -module-name onair $(apple_files Sources/onair)
echo "onair: $(apple_files Sources/onair | wc -l) files (the stand-in that says the tool runs on Linux)"
for target in OnAirTests OnAirAppleTests OnAirBitstreamTests; do
    files=$(apple_files "Tests/$target")
    swift_check -typecheck -module-name "$target" $files
    echo "$target: $(echo "$files" | wc -l) of $(find "Tests/$target" -name '*.swift' | wc -l) files"
done
# OnAir's Apple branches (EncoderFactory picking VideoToolbox/AudioToolbox, camera:/microphone: specs
# making the AVCaptureSession sources), against OnAirApple built with its adapter on the stubs of
# scripts/apple-stub-check.sh: a stub check of those branches, not an SDK build.
stubbed="$work/stubbed"
mkdir -p "$stubbed"
for module in OnAirCore OnAirBitstream OnAirLive; do cp -R "$built/$module.swiftmodule" "$stubbed/"; done
swift_stub() { swiftc -parse-as-library -swift-version 6 -warnings-as-errors -package-name "$package_name" -D ONAIR_APPLE_STUBS -I "$stubbed" "$@"; }
swiftc -parse-as-library -swift-version 6 -D ONAIR_APPLE_STUBS -module-name AppleAPIStubs -emit-module \
    -emit-module-path "$stubbed/AppleAPIStubs.swiftmodule" Tests/AppleAPIStubs/AppleAPIStubs.swift
swift_stub -emit-module -module-name OnAirApple -emit-module-path "$stubbed/OnAirApple.swiftmodule" $(find Sources/OnAirApple -name '*.swift' | sort)
swift_stub -typecheck -module-name OnAir $(apple_files Sources/OnAir)
echo "OnAir with OnAirApple's adapter on the stubs: EncoderFactory's and capture-by-spec's Apple branches type-check (stub check)"
echo "APPLE-SHAPE CHECK passed (not an SDK build: docs/APPLE.md says what only a Mac verifies)"
