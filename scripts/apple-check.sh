#!/usr/bin/env bash
# The Mac check of the Apple backend: what a maintainer with a Mac (Xcode installed) runs. Nothing in
# CI runs it (CI is Linux; it runs only scripts/apple-stub-check.sh, a stub check, not an SDK build).
#   scripts/apple-check.sh            # macOS build + tests, then iOS device and simulator builds
#   scripts/apple-check.sh --no-ios   # skip the xcodebuild part
# It builds the package and its tests on macOS, runs the Apple backend's suites (the portable ones,
# the contract on VideoToolbox/AudioToolbox and the Apple-only round trips in AppleOnlyTests), then the
# whole suite, then builds the OnAir scheme for a generic iOS device and the iOS simulator. On
# success, record the date and the macOS/Xcode versions in docs/APPLE.md ("last built on a Mac").
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(uname -s)" != Darwin ]; then
    echo "apple-check.sh runs on macOS only (here: $(uname -s)); on Linux run scripts/apple-stub-check.sh" >&2
    exit 2
fi
ios=1
[ "${1:-}" = --no-ios ] && ios=0
echo "== $(sw_vers -productName) $(sw_vers -productVersion), $(xcodebuild -version | head -1), $(swift --version 2>&1 | head -1)"
echo "== swift build --build-tests"
swift build --build-tests
echo "== swift test (Apple backend suites)"
swift test --skip-build --filter 'AppleOnlyTests|CompressionPropertyPlanTests|H264SamplePackagerTests|KeyFramePolicyTests|AACPacketizerTests|H264DecoderFeedTests|AudioBufferRingTests|PixelBufferFillTests|AssetWriterFeedTests|CameraSelectionTests|MicrophoneCaptureTests|PictureTimelineTests|CaptureSpecTests'
echo "== swift test (everything that builds on macOS)"
swift test --skip-build
if [ "$ios" = 1 ]; then
    echo "== xcodebuild: generic iOS device"
    xcodebuild -scheme OnAir -destination 'generic/platform=iOS' build
    echo "== xcodebuild: iOS simulator"
    xcodebuild -scheme OnAir -destination 'generic/platform=iOS Simulator' build
fi
echo "APPLE CHECK passed on $(sw_vers -productVersion) — update 'last built on a Mac' in docs/APPLE.md"
