// swift-tools-version:6.1
// CI: an app that only records and streams. It depends on OnAir by version with no trait enabled,
// so the OnAir product brings FFmpeg and libsrt and nothing of GStreamer, libmicrohttpd or SDL2:
// .ci/versioned-consumer.sh builds it, checks the build log and the binary's libraries for them,
// runs it and probes what it wrote. Without ONAIR_PACKAGE_URL, by path.
import Foundation
import PackageDescription

let url = ProcessInfo.processInfo.environment["ONAIR_PACKAGE_URL"]

let package = Package(
    name: "OnAirRecordingConsumer",
    dependencies: [
        url.map { Package.Dependency.package(url: $0, from: "0.1.0", traits: []) }
            ?? .package(name: "OnAir", path: "../..", traits: [])
    ],
    targets: [
        .executableTarget(name: "record-stream", dependencies: [.product(name: "OnAir", package: "OnAir")])
    ],
    swiftLanguageModes: [.v6]
)
