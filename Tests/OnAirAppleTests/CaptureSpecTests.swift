import OnAirApple
import OnAirCore
import OnAirLive
import Testing

/// Capture by spec on Apple platforms: `camera:` and `microphone:` name AVCaptureSession devices,
/// and the camera's argument is what `CameraSelection` reads.
@Suite struct CaptureSpecTests {
    @Test func parsesCameraAndMicrophoneSpecs() throws {
        let cases: [(String, SourceSpec, String)] = [
            ("camera:front", .camera(spec: "front"), "camera:front"), ("camera:back", .camera(spec: "back"), "camera:back"),
            ("camera:0x1420000005ac8600", .camera(spec: "0x1420000005ac8600"), "camera:0x1420000005ac8600"),
            ("camera", .camera(spec: "default"), "camera:default"), ("camera:", .camera(spec: "default"), "camera:default"),
            ("microphone", .microphone(device: "default"), "microphone:default"),
            ("microphone:BuiltInMicrophoneDevice", .microphone(device: "BuiltInMicrophoneDevice"), "microphone:BuiltInMicrophoneDevice"),
        ]
        for (text, expected, written) in cases {
            let spec = try SourceSpec(parsing: text)
            #expect(spec == expected, "\(text)")
            let reread = try SourceSpec(parsing: written)
            #expect(spec.description == written && reread == spec, "round trip of \(text)")
        }
        #expect(SourceSpec.camera(spec: "front").mediaTypes == [.video])
        #expect(SourceSpec.microphone(device: "default").mediaTypes == [.audio])
    }

    @Test func theCameraArgumentIsTheSelectionsRequest() throws {
        func request(_ text: String) throws -> CameraRequest {
            guard case .camera(let spec) = try SourceSpec(parsing: text) else { throw SourceSpecError.unknownKind(text: text) }
            return CameraRequest(spec: spec)
        }
        #expect(try request("camera") == .any)
        #expect(try request("camera:front") == .position(.front))
        #expect(try request("camera:back") == .position(.back))
        #expect(try request("camera:0x1420000005ac8600") == .uniqueID("0x1420000005ac8600"))
    }
}
