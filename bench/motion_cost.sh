#!/usr/bin/env bash
# The motion detector's cost (issue 46: under 2 % of one core at 5 fps on 320x180): compiles
# Sources/OnAirCore/Motion/MotionDetector.swift optimized with a driver that feeds it an hour of
# 320x180 luma frames at 5 fps (a textured block jumping between two places, sensor noise) and
# prints the time per analysed frame and the share of one core.
#   bench/motion_cost.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/main.swift" <<'SWIFT'
import Foundation

let width = 320, height = 180
var state: UInt64 = 0x9E37_79B9_7F4A_7C15
func noise() -> Int {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return Int(state % 13) - 6
}
let frames: [[UInt8]] = (0..<16).map { index in
    var luma = [UInt8](repeating: 0, count: width * height)
    let left = index % 2 == 0 ? 40 : 90
    for y in 0..<height {
        for x in 0..<width {
            var value = 40 + x / 4 + y / 4 + noise()
            if (left..<left + 48).contains(x), (60..<108).contains(y) { value = ((x - left) / 6 + (y - 60) / 12) % 2 == 0 ? 10 : 50 }
            luma[y * width + x] = UInt8(clamping: value)
        }
    }
    return luma
}
var detector = MotionDetector()
let count = 5 * 3600
let spent = ContinuousClock().measure {
    for index in 0..<count {
        frames[index % 16].withUnsafeBytes {
            _ = detector.analyze(luma: $0, width: width, height: height, bytesPerRow: width, at: Double(index) * 0.2)
        }
    }
}
let seconds = Double(spent.components.seconds) + Double(spent.components.attoseconds) / 1e18
print(String(format: "motion detector: %d frames of 320x180 (an hour at 5 fps) in %.3f s: %.1f us a frame, %.4f %% of one core",
             count, seconds, seconds / Double(count) * 1e6, seconds / 3600 * 100))
SWIFT
swiftc -O -package-name onair Sources/OnAirCore/Motion/MotionDetector.swift "$work/main.swift" -o "$work/motion_cost" -lm
"$work/motion_cost"
