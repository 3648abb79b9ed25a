// swift-tools-version:6.0
// Two small programs that use OnAir as an app would, depending on it by path.
import PackageDescription

let package = Package(
    name: "OnAirExamples",
    dependencies: [.package(name: "OnAir", path: "..")],
    targets: [
        // Frames and a tone made by the app, streamed to a URL while recording a file.
        .executableTarget(name: "StreamAppFrames", dependencies: [.product(name: "OnAir", package: "OnAir")]),
        // A minimal player window for a URL or a file.
        .executableTarget(name: "MiniPlayer", dependencies: [.product(name: "OnAir", package: "OnAir")]),
    ],
    swiftLanguageModes: [.v6]
)
