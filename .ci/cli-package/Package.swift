// swift-tools-version:6.0
// CI: the command-line tool's own sources, built as a separate package that depends on OnAir as
// any app would — so `onair` can only use OnAir's public API (no `package` or internal symbols, no
// @testable). .ci/versioned-consumer.sh sets ONAIR_PACKAGE_URL to a git repository of the current
// tree that it tagged itself, so the dependency is by version (`from:`), the way apps add it: no
// unsafe flags may be reachable. Without it, by path.
import Foundation
import PackageDescription

let url = ProcessInfo.processInfo.environment["ONAIR_PACKAGE_URL"]
let version = ProcessInfo.processInfo.environment["ONAIR_PACKAGE_VERSION"] ?? "0.1.0"

let package = Package(
    name: "OnAirCLICheck",
    dependencies: [
        url.map { Package.Dependency.package(url: $0, from: Version(stringLiteral: version)) } ?? .package(name: "OnAir", path: "../..")
    ],
    targets: [
        .executableTarget(name: "onair-cli", dependencies: [.product(name: "OnAir", package: "OnAir")], path: "Sources/onair-cli")
    ],
    swiftLanguageModes: [.v6]
)
