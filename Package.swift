// swift-tools-version:6.1
import Foundation
import PackageDescription

/// Fuzz targets are only added when `ONAIR_FUZZ=1` is set (see scripts/fuzz.sh): they are
/// executables whose `main` comes from libFuzzer, so they link only with `-sanitize=fuzzer`.
let fuzzing = ProcessInfo.processInfo.environment["ONAIR_FUZZ"] == "1"

/// The GStreamer and GLib include folders of the GStreamer shims, through the symlinks in each
/// shim's system/ folder.
let gstreamerHeaders: [CSetting] = [
    .headerSearchPath("system/gstreamer-1.0"), .headerSearchPath("system/glib-2.0"),
    .headerSearchPath("system/glib-2.0-x86_64"), .headerSearchPath("system/glib-2.0-aarch64"),
]

var targets: [Target] = [
    .target(name: "OnAirCore"),
    .target(name: "OnAirBitstream", dependencies: ["OnAirCore"]),
    .systemLibrary(
        name: "CFFmpeg",
        pkgConfig: "libavformat",  // libavdevice is loaded at run time (DeviceLibrary), not linked
        providers: [
            .apt([
                "libavcodec-dev", "libavformat-dev", "libavutil-dev", "libswscale-dev",
                "libswresample-dev", "libavdevice-dev", "libavfilter-dev",
            ])
        ]
    ),
    .target(name: "OnAirFFmpeg", dependencies: ["OnAirCore", "OnAirBitstream", "CFFmpeg"]),
    // One system library per C library the viewing half uses; each is wrapped by one backend target.
    // No pkgConfig: sdl2.pc adds -D_REENTRANT, which SwiftPM refuses with a warning; the header is on the default path.
    .systemLibrary(name: "CSDL2", providers: [.apt(["libsdl2-dev"])]),
    .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
    .systemLibrary(name: "CSRT", pkgConfig: "srt", providers: [.apt(["libsrt-gnutls-dev"])]),
    // libyaml reads `onair serve --config FILE` (yaml-0.1.pc adds only -I/usr/include and -lyaml).
    .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
    // The serve configuration file: libyaml's events into a node tree, the key table, file < environment < flags.
    .target(name: "OnAirServeConfig", dependencies: ["OnAirCore", "CYAML"]),
    // GStreamer (its start, elements and appsrc) behind a C shim whose header names no GStreamer type (so Swift needs
    // no GStreamer include path). Neither pkgConfig (gstreamer-1.0.pc adds -pthread, which SwiftPM refuses with
    // a warning in every package that depends on this one) nor unsafe flags (refused in a versioned dependency):
    // the include folders are reached through committed symlinks under system/ (Debian's paths, both
    // architectures' glibconfig.h), given to the shim's C compile as relative header search paths.
    .target(
        name: "CGStreamer",
        exclude: ["system"],
        cSettings: gstreamerHeaders,
        linkerSettings: [
            .linkedLibrary("gstapp-1.0"), .linkedLibrary("gstreamer-1.0"), .linkedLibrary("gobject-2.0"),
            .linkedLibrary("glib-2.0"),
        ]
    ),
    // webrtcbin (one peer per WHEP viewer or WHIP publisher) behind a C shim of its own, like CGStreamer's; GnuTLS makes
    // the ECDSA certificate its DTLS presents.
    .target(
        name: "CGStreamerWebRTC",
        exclude: ["system"],
        cSettings: gstreamerHeaders,
        linkerSettings: [
            .linkedLibrary("gstwebrtc-1.0"), .linkedLibrary("gstsdp-1.0"), .linkedLibrary("gstreamer-1.0"),
            .linkedLibrary("gobject-2.0"), .linkedLibrary("glib-2.0"), .linkedLibrary("gnutls"),
        ]
    ),
    // GStreamer behind Swift types: the WebRTC face of `onair serve` and WHIP, loaded on first use.
    .target(name: "OnAirGStreamer", dependencies: ["OnAirCore", "CGStreamer", "CGStreamerWebRTC"]),
    // The live core: the session that runs sources into encoders into sinks, its queues, the sink protocols,
    // adaptive bitrate, the file sinks of elementary streams and the synthetic source. Needs no FFmpeg.
    .target(name: "OnAirLive", dependencies: ["OnAirCore", "OnAirBitstream"]),
    // Analysis: what a file or stream holds (probe) and how well sound and picture line up (sync, frame codes).
    .target(name: "OnAirAnalysis", dependencies: ["OnAirCore", "OnAirBitstream", "OnAirLive", "OnAirFFmpeg"]),
    // Streaming: network outputs (RTMP, SRT, UDP, TCP, RTSP publish) with reconnect and send gates, one connector
    // per transport, WHIP (webrtcbin) and HLS.
    // HLS files served over HTTP need libmicrohttpd (the Serving or WHIP trait); WHIP needs GStreamer (the WHIP trait).
    .target(
        name: "OnAirStreaming",
        dependencies: [
            "OnAirCore", "OnAirBitstream", "OnAirLive", "OnAirFFmpeg", "OnAirSRT",
            .target(name: "OnAirHTTP", condition: .when(traits: ["Serving", "WHIP"])),
            .target(name: "OnAirGStreamer", condition: .when(traits: ["WHIP"])),
        ]),
    // Serving: the hub that feeds every viewer from its own queue, and its faces (HTTP-TS, fMP4, HLS, SRT, RTSP,
    // WebRTC) with the preview page, whose HTML, CSS and JS (Sources/OnAirServing/Preview/page/, excluded here) are
    // compiled into the binary as string literals written by scripts/embed-files.py (Preview/EmbeddedFiles.swift):
    // SwiftPM resources on Linux are a folder beside the binary, which a copy loses.
    .target(
        name: "OnAirServing",
        dependencies: [
            "OnAirCore", "OnAirBitstream", "OnAirLive", "OnAirStreaming", "OnAirFFmpeg", "OnAirHTTP", "OnAirSRT",
            "OnAirGStreamer", "CArgon2", "OnAirServeConfig", "COnAirNet", "COnAirTLS",
        ],
        exclude: ["Preview/page"]
    ),
    // Playback: the player (receive, decode, keep sound and picture in step), its window and writers.
    .target(name: "OnAirPlayback", dependencies: ["OnAirCore", "OnAirLive", "OnAirAnalysis", "OnAirFFmpeg", "OnAirSDL"]),
    .target(name: "OnAirApple", dependencies: ["OnAirCore", "OnAirBitstream", "OnAirLive"]),
    // libmicrohttpd behind Swift types: the HTTP server of `onair serve`.
    .target(name: "OnAirHTTP", dependencies: ["OnAirCore", "CMicroHTTPD", "COnAirTLS"]),
    // GnuTLS (what Debian builds libmicrohttpd with) for HTTPS: a self-signed certificate, fingerprints, checks.
    .target(name: "COnAirTLS", linkerSettings: [.linkedLibrary("gnutls")]),
    // Linux's epoll, eventfd and accept4 for the event-driven servers (Swift's Glibc has neither header).
    .target(name: "COnAirNet"),
    // libargon2: the argon2id password hashes of serve's users (PHC strings, constant-time verification).
    .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
    .target(name: "OnAirSRT", dependencies: ["OnAirCore", "CSRT"]),
    // The window and sound output of `onair play` (SDL2), Swift types only.
    .target(name: "OnAirSDL", dependencies: ["OnAirCore", "CSDL2"]),
    .target(
        name: "OnAir",
        dependencies: [
            "OnAirCore", "OnAirBitstream", "OnAirLive",
            .target(name: "OnAirAnalysis", condition: .when(platforms: [.linux])),
            .target(name: "OnAirStreaming", condition: .when(platforms: [.linux])),
            .target(name: "OnAirServing", condition: .when(platforms: [.linux], traits: ["Serving"])),
            .target(name: "OnAirPlayback", condition: .when(platforms: [.linux], traits: ["Playback"])),
            .target(name: "OnAirFFmpeg", condition: .when(platforms: [.linux])),
            .target(name: "OnAirSDL", condition: .when(platforms: [.linux], traits: ["Playback"])),
            .target(name: "OnAirApple", condition: .when(platforms: [.macOS, .iOS])),
            .target(name: "OnAirHTTP", condition: .when(platforms: [.linux], traits: ["Serving", "WHIP"])),
            .target(name: "OnAirGStreamer", condition: .when(platforms: [.linux], traits: ["Serving", "WHIP"])),
            .target(name: "OnAirServeConfig", condition: .when(platforms: [.linux], traits: ["Serving"])),
            .target(name: "OnAirSRT", condition: .when(platforms: [.linux])),
        ]
    ),
    .executableTarget(name: "onair", dependencies: ["OnAir"]),
    .target(name: "OnAirTestSupport", dependencies: ["OnAirCore"], path: "Tests/OnAirTestSupport"),
    .testTarget(name: "OnAirBitstreamTests", dependencies: ["OnAirBitstream", "OnAirTestSupport"]),
    .testTarget(
        name: "OnAirFFmpegTests", dependencies: [.target(name: "OnAirFFmpeg", condition: .when(platforms: [.linux])), "OnAirTestSupport"]),
    .testTarget(
        name: "OnAirSRTTests", dependencies: [.target(name: "OnAirSRT", condition: .when(platforms: [.linux])), "OnAirTestSupport"]),
    .testTarget(
        name: "OnAirTests",
        dependencies: [
            "OnAir", "OnAirLive", .target(name: "OnAirAnalysis", condition: .when(platforms: [.linux])),
            .target(name: "OnAirStreaming", condition: .when(platforms: [.linux])),
            .target(name: "OnAirServing", condition: .when(platforms: [.linux])),
            .target(name: "OnAirPlayback", condition: .when(platforms: [.linux])),
            .target(name: "OnAirServeConfig", condition: .when(platforms: [.linux])), "OnAirTestSupport",
        ]),
    .testTarget(
        name: "OnAirHTTPTests", dependencies: [.target(name: "OnAirHTTP", condition: .when(platforms: [.linux])), "OnAirTestSupport"]),
    // The Apple backend's portable core, its stub check, and the backend contract tests (run on
    // FFmpeg on Linux and on VideoToolbox/AudioToolbox on a Mac): builds on every platform.
    .testTarget(
        name: "OnAirAppleTests",
        dependencies: [
            "OnAirApple", "OnAirCore", "OnAirBitstream", "OnAirLive", "OnAirTestSupport",
            .target(name: "OnAirFFmpeg", condition: .when(platforms: [.linux])),
        ]),
    .testTarget(
        name: "OnAirGStreamerTests",
        dependencies: [
            .target(name: "OnAirGStreamer", condition: .when(platforms: [.linux])),
            .target(name: "OnAirServing", condition: .when(platforms: [.linux])), "OnAirTestSupport",
        ]),
    // The command-line tool's tests run the `onair` binary: Linux-only, like the tool.
    .testTarget(
        name: "OnAirCLITests",
        dependencies: [
            .target(name: "OnAir", condition: .when(platforms: [.linux])),
            .target(name: "OnAirLive", condition: .when(platforms: [.linux])),
            .target(name: "OnAirAnalysis", condition: .when(platforms: [.linux])),
            .target(name: "OnAirStreaming", condition: .when(platforms: [.linux])),
            .target(name: "OnAirServing", condition: .when(platforms: [.linux])),
            .target(name: "OnAirPlayback", condition: .when(platforms: [.linux])),
            .target(name: "onair", condition: .when(platforms: [.linux])), "OnAirTestSupport",
        ]),
]

if fuzzing {
    // Each fuzz target and the targets it exercises. scripts/fuzz.sh builds them with
    // -parse-as-library and libFuzzer's own main on its command line: no flag in the manifest.
    let fuzzed: [String: [Target.Dependency]] = [
        "FuzzAnnexB": ["OnAirBitstream"], "FuzzH264Parameters": ["OnAirBitstream"], "FuzzAVCC": ["OnAirBitstream"],
        "FuzzADTS": ["OnAirBitstream"], "FuzzAudioSpecificConfig": ["OnAirBitstream"], "FuzzHTTPPath": ["OnAirHTTP"],
        "FuzzHTTPResponse": ["OnAirHTTP"], "FuzzHTTPAuthorization": ["OnAirServing"], "FuzzWebRTCOffer": ["OnAirGStreamer"],
        "FuzzH264SamplePackager": ["OnAirBitstream", "OnAirApple"], "FuzzPlaybackQuery": ["OnAirCore", "OnAirServing"],
        "FuzzServeConfig": ["OnAirServeConfig"], "FuzzRTSPRequestRules": ["OnAirServing"], "FuzzRTSPMessage": ["OnAirServing"],
        "FuzzRTSPAuthorization": ["OnAirCore", "OnAirServing"],
        "FuzzSRTStreamID": ["OnAirCore", "OnAirServing"], "FuzzSegmentJournal": ["OnAirCore"],
        "FuzzSOAPReader": ["OnAirCore", "OnAirServing"],
        "FuzzHEVC": ["OnAirBitstream"], "FuzzWSDiscovery": ["OnAirCore", "OnAirServing"],
    ]
    for (name, dependencies) in fuzzed.sorted(by: { $0.key < $1.key }) {
        targets.append(.executableTarget(name: name, dependencies: dependencies, path: "Fuzz/\(name)", exclude: ["seeds.sh"]))
    }
}

let package = Package(
    name: "OnAir",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "OnAir", targets: ["OnAir"]),
        .library(name: "OnAirCore", targets: ["OnAirCore"]),
        .library(name: "OnAirBitstream", targets: ["OnAirBitstream"]),
        .executable(name: "onair", targets: ["onair"]),
    ],
    // What the OnAir product brings beyond recording and streaming (FFmpeg, libsrt), each with the C
    // libraries it needs. All on by default; an app that only records and streams depends with
    // `traits: []`: its build neither compiles against nor links GStreamer, libmicrohttpd or SDL2.
    traits: [
        .trait(
            name: "Serving",
            description: "Serve viewers: HTTP/HLS, SRT, RTSP and WebRTC (libmicrohttpd, GStreamer, libargon2, libyaml)"
        ),
        .trait(
            name: "WHIP",
            description: "Publish over WebRTC to a WHIP endpoint (GStreamer's webrtcbin, libmicrohttpd)"
        ),
        .trait(name: "Playback", description: "Play streams and files in a window with sound (SDL2)"),
        .default(enabledTraits: ["Serving", "WHIP", "Playback"]),
    ],
    targets: targets,
    swiftLanguageModes: [.v6]
)
