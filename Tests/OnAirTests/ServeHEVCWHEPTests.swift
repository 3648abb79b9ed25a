#if os(Linux)
import Foundation
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirServing

/// WebRTC carries H.264 only: with `--webrtc` and an H.265 encode and no H.264 one beside it,
/// WHEP answers 415 with the reason (on `/whep`, its alias and a sub stream's path), and the
/// outputs make no WebRTC face for it. No encode runs: the outputs are built and asked over HTTP.
@Suite struct ServeHEVCWHEPTests {
    @Test func whepOfAnH265OnlyServerIs415WithTheReason() throws {
        var configuration = ServeConfiguration()
        configuration.port = 0
        configuration.webRTC = WebRTCConfiguration()
        let outputs = try ServeOutputs(
            configuration: configuration, streams: [.video], streamBitRate: 1_000_000, renditions: ["sub"],
            codecs: [ServeHub.main: .h265, "sub": .h265])
        defer { outputs.stop() }
        #expect(outputs.webRTC == nil && outputs.renditionFaces.isEmpty)
        for path in ["/whep", "/live/whep", "/sub/whep"] {
            let result = try Tools.run(
                "curl",
                [
                    "-s", "-m", "5", "-X", "POST", "-H", "Content-Type: application/sdp", "--data", "v=0", "-w", "\n%{http_code}",
                    "http://127.0.0.1:\(outputs.server.port)\(path)",
                ])
            let lines = result.stdoutText.split(separator: "\n")
            #expect(lines.last == "415", "\(path): \(result.stdoutText)")
            #expect(result.stdoutText.contains("H.265") && result.stdoutText.contains("--sub-codec h264"), "\(path): \(result.stdoutText)")
        }
    }
}
#endif
