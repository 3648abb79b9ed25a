// swift-tools-version:6.0
// CI: the command-line tool's own sources, built as a separate package that depends on OnAir by
// path — as any app would — so `onair` can only use OnAir's public API (no `package` or internal
// symbols, no @testable).
import PackageDescription

let package = Package(
    name: "OnAirCLICheck",
    dependencies: [.package(name: "OnAir", path: "../..")],
    targets: [
        .executableTarget(name: "onair-cli", dependencies: [.product(name: "OnAir", package: "OnAir")], path: "Sources/onair-cli"),
    ],
    swiftLanguageModes: [.v6]
)
