#if os(Linux)
import Foundation
import OnAir
import OnAirTestSupport
import Testing

#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
#endif

@Suite struct DeviceSourceSpecTests {
    @Test func parsesEveryForm() throws {
        let cases: [(String, SourceSpec)] = [
            ("synthetic", .synthetic), ("none", .none),
            ("v4l2:/dev/video0", .v4l2(device: "/dev/video0")),
            ("x11::99", .x11(display: ":99")), ("x11::99.0+0,0", .x11(display: ":99.0+0,0")),
            ("x11:host:0.1", .x11(display: "host:0.1")),
            ("alsa:hw:1,0", .alsa(device: "hw:1,0")), ("alsa:default", .alsa(device: "default")),
            ("pulse:onair.monitor", .pulse(source: "onair.monitor")),
            ("file:/tmp/a:b.mp4", .file(path: "/tmp/a:b.mp4")),
        ]
        for (text, expected) in cases {
            let spec = try SourceSpec(parsing: text)
            #expect(spec == expected, "\(text)")
            #expect(spec.description == text, "round trip of \(text)")
        }
    }

    @Test func rejectsMalformedSpecsClearly() {
        let cases: [(String, SourceSpecError)] = [
            ("webcam", .unknownKind(text: "webcam")),
            ("", .unknownKind(text: "")),
            ("v4l2:", .missingArgument(kind: "v4l2", example: "v4l2:/dev/video0")),
            ("pulse", .missingArgument(kind: "pulse", example: "pulse:default")),
            ("none:x", .unexpectedArgument(kind: "none", text: "none:x")),
            ("synthetic:1", .unexpectedArgument(kind: "synthetic", text: "synthetic:1")),
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text)") { try SourceSpec(parsing: text) }
        }
        for bad in ["v4l2:video0", "x11:99", "x11::", "x11::a", "x11::0+1", "x11::0+a,b", "x11::0.1.2"] {
            do {
                _ = try SourceSpec(parsingTyped: bad)
                Issue.record("\(bad) should be rejected")
            } catch {
                guard case .invalidArgument(let text, let problem) = error else {
                    Issue.record("\(bad): \(error)")
                    continue
                }
                #expect(text == bad && !problem.isEmpty)
            }
        }
        #expect(SourceSpecError.unknownKind(text: "cam").description.contains("v4l2:/dev/videoN"))
    }

    @Test func makesOneSourcePerDeviceAndSharesAFile() throws {
        let size = (width: 320, height: 240)
        var syntheticKinds: [Set<MediaType>] = []
        let make = { (video: String, audio: String) throws -> [any CaptureSource] in
            try SourceSpec.makeSource(
                video: SourceSpec(parsing: video), audio: SourceSpec(parsing: audio),
                size: size, frameRate: 30, sampleRate: 48000, channels: 2,
                synthetic: { kinds in
                    syntheticKinds.append(kinds)
                    return FileSource(path: "synthetic-stand-in", mediaTypes: kinds)
                })
        }
        let devices = try make("x11::99", "pulse:default")
        #expect(devices.map(\.name) == ["x11grab::99", "pulse:default"])
        let file = try make("file:/tmp/clip.mp4", "file:/tmp/clip.mp4")
        #expect(file.count == 1 && file[0].mediaTypes == [.video, .audio])
        let mixed = try make("synthetic", "alsa:hw:0")
        #expect(mixed.map(\.name) == ["file:synthetic-stand-in", "alsa:hw:0"])
        #expect(syntheticKinds == [[.video]])
        #expect(try make("none", "none").isEmpty)
        #expect(throws: SourceSpecError.wrongMediaType(text: "pulse:default", wanted: .video)) { try make("pulse:default", "none") }
        #expect(throws: SourceSpecError.wrongMediaType(text: "v4l2:/dev/video0", wanted: .audio)) { try make("none", "v4l2:/dev/video0") }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb"), "needs Xvfb (xvfb)"))
    func listsARunningScreen() throws {
        let fm = FileManager.default
        guard
            let number = (190...229).first(where: {
                !fm.fileExists(atPath: "/tmp/.X11-unix/X\($0)") && !fm.fileExists(atPath: "/tmp/.X\($0)-lock")
            })
        else {
            Issue.record("no free display")
            return
        }
        let xvfb = Process()
        xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        xvfb.arguments = [":\(number)", "-screen", "0", "320x240x24", "-nolisten", "tcp", "-noreset"]
        xvfb.standardOutput = FileHandle.nullDevice
        xvfb.standardError = FileHandle.nullDevice
        try xvfb.runUnblocked()
        defer {
            // SIGKILL: the test runner's children inherit a mask that blocks SIGTERM.
            kill(xvfb.processIdentifier, SIGKILL)
            xvfb.waitUntilExit()
            try? fm.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
            try? fm.removeItem(atPath: "/tmp/.X\(number)-lock")
        }
        _ = waitUntil(timeout: 5) { fm.fileExists(atPath: "/tmp/.X11-unix/X\(number)") }
        let devices = CaptureDevices.list()
        let screen = devices.first { $0.spec == "x11::\(number)" }
        #expect(screen?.kind == .screen, "listed \(devices.map(\.spec))")
        #expect(screen?.formats.first?.sizes == ["320x240"])
        let json = try JSONEncoder().encode(devices)
        #expect(try JSONDecoder().decode([CaptureDeviceInfo].self, from: json) == devices)
    }
}
#endif
