#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

@testable import OnAirFFmpeg

@Suite(.serialized) struct DeviceDiscoveryTests {
    @Test(
        .enabled(
            if: toolExists("Xvfb") && toolExists("pulseaudio") && toolExists("pactl"),
            "needs Xvfb and pulseaudio (xvfb, pulseaudio, pulseaudio-utils)"))
    func listsARunningDisplayAndPulseMonitor() throws {
        let x = try TestXServer(width: 320, height: 240)
        defer { x.stop() }
        let pulse = try TestPulseServer()
        defer { pulse.stop() }
        let screens = DeviceDiscovery.screens()
        let screen = screens.first { $0.device == x.display }
        #expect(screen != nil, "found \(screens.map(\.device))")
        #expect(screen?.kind == .x11grab)
        #expect(screen?.formats.first?.sizes == ["320x240"])
        let sources = DeviceDiscovery.pulseSources(server: pulse.server)
        #expect(sources.contains { $0.device == pulse.monitor && $0.kind == .pulse }, "found \(sources.map(\.device))")
    }

    @Test func absentDevicesGiveEmptyLists() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("onair-empty-\(UUID())").path
        #expect(DeviceDiscovery.cameras(directory: empty).isEmpty)
        #expect(DeviceDiscovery.screens(socketDirectory: empty).isEmpty)
        #expect(DeviceDiscovery.alsaDevices(cardsFile: empty + "/cards").isEmpty)
        #expect(DeviceDiscovery.pulseSources(server: "unix:\(empty)/native").isEmpty)
    }

    @Test func parsesV4L2FormatListsAndSoundCards() {
        let fragments = [
            "Raw       :     yuyv422 :           YUYV 4:2:2 :", "640x480", "320x240",
            "Compressed:       mjpeg :          Motion-JPEG :", "1280x720",
        ]
        let formats = DeviceDiscovery.parseV4L2Formats(fragments)
        #expect(
            formats == [
                .init(pixelFormat: "yuyv422", sizes: ["640x480", "320x240"]),
                .init(pixelFormat: "mjpeg", sizes: ["1280x720"]),
            ])
        let cards = DeviceDiscovery.parseCards(
            " 0 [PCH            ]: HDA-Intel - HDA Intel PCH\n                      HDA Intel PCH at 0xf7f10000 irq 32\n")
        #expect(cards.count == 1 && cards[0].index == 0 && cards[0].name == "HDA Intel PCH")
    }
}
#endif
