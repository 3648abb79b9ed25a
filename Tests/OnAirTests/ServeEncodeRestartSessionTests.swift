#if os(Linux)
import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// `Session.restartVideoEncode` while serving WebRTC (in process): a new size restarts the encode
/// (the statistics show it), a new profile is refused, since WHEP viewers negotiated the one the
/// face was made with, and the running encode goes on.
@Suite(.serialized) struct ServeEncodeRestartSessionTests {
    @Test func aNewSizeRestartsAndANewProfileIsRefusedWhileServingWebRTC() async throws {
        var settings = SessionSettings()
        settings.video = .synthetic
        settings.audio = .none
        settings.videoEncoder = VideoEncoderSettings(width: 160, height: 120, expectedFrameRate: 15, averageBitRate: 200_000)
        settings.videoEncoder.preset = "ultrafast"
        settings.videoEncoder.profileLevel.profile = .baseline
        var serving = ServingSettings()
        serving.server.port = 0  // any free port: nothing here connects
        serving.server.webRTC = WebRTCConfiguration()
        settings.serving = serving
        let session = try await SessionBuilder(settings).build()
        try session.start()
        defer { _ = try? session.stop() }
        #expect(waitUntil(timeout: 10) { session.latestStatistics?.videoWidth == 160 })

        var main = settings
        main.videoEncoder.profileLevel.profile = .main
        #expect(throws: SettingsError.self) { try session.restartVideoEncode(main, restartingCapture: false) }
        var larger = settings
        larger.videoEncoder.width = 320
        larger.videoEncoder.height = 180
        #expect(try session.restartVideoEncode(larger, restartingCapture: true))
        #expect(waitUntil(timeout: 5) { session.latestStatistics?.videoWidth == 320 && session.latestStatistics?.videoHeight == 180 })
        let frames = session.latestStatistics?.framesOut ?? 0
        #expect(waitUntil(timeout: 5) { (session.latestStatistics?.framesOut ?? 0) > frames + 10 }, "the encode stopped after the restart")
        #expect(session.failedOutputs.isEmpty)
    }
}
#endif
