#if os(Linux)
import Foundation
import Testing

@testable import OnAir
@testable import OnAirLive
@testable import OnAirStreaming

/// The pure parts of the WHIP output: the endpoint URL and the
/// gauge that turns RTCP receiver reports into what adaptive bitrate reads.
struct WHIPClientPartsTests {
    @Test func endpointsParseAndLocationsResolveOnTheSameServerOnly() throws {
        let endpoint = try WHIPEndpoint(parsing: "whip+http://127.0.0.1:8889/live/whip?key=1")
        #expect(endpoint.host == "127.0.0.1" && endpoint.port == 8889 && endpoint.path == "/live/whip?key=1")
        #expect(endpoint.resourcePath(location: "/whip/session/1") == "/whip/session/1")
        #expect(endpoint.resourcePath(location: "session/2") == "/live/session/2")
        #expect(endpoint.resourcePath(location: "http://127.0.0.1:8889/s/3") == "/s/3")
        #expect(endpoint.resourcePath(location: "http://other.example:8889/s/3") == nil)
        #expect(try WHIPEndpoint(parsing: "WHIP+HTTP://[::1]/whip").port == 80)
        let secure = try WHIPEndpoint(parsing: "whip+https://example.com/whip")
        #expect(secure.isSecure && secure.port == 443 && !endpoint.isSecure)
        #expect(secure.resourcePath(location: "https://example.com/s/4") == "/s/4")
        #expect(secure.resourcePath(location: "http://example.com/s/4") == nil)
        #expect(throws: StreamError.self) { try WHIPEndpoint(parsing: "whip+ftp://example.com/whip") }
        #expect(throws: StreamError.self) { try WHIPEndpoint(parsing: "whip+http:///whip") }
        #expect(try OutputRegistry.kind(for: "whip+http://127.0.0.1:1/whip").name == "whip")
    }

    @Test func theGaugeTurnsReceiverReportsIntoDeliveredBytesRoundTripsAndHeavyLossIntoDrops() {
        var gauge = WHIPLinkGauge()
        // One second, 100 packets of 1000 bytes, no loss, 20 ms round trip.
        var reading = gauge.measure(at: 0, bytesSent: 0, packetsSent: 0, packetsLost: nil, roundTrip: nil, queuedBytes: 0)
        reading = gauge.measure(at: 1, bytesSent: 100_000, packetsSent: 100, packetsLost: 0, roundTrip: 0.02, queuedBytes: 500)
        #expect(reading.bytesAcknowledged == 100_000 && reading.queuedBytes == 500)
        #expect(reading.roundTripTime == 0.02 && reading.minimumRoundTripTime == 0.02 && reading.droppedPackets == 0)
        // 2 % loss: lost, not dropped; the round trip rose 30 ms: a queue in the network.
        reading = gauge.measure(at: 2, bytesSent: 200_000, packetsSent: 200, packetsLost: 2, roundTrip: 0.05, queuedBytes: 0)
        #expect(reading.lostPackets == 2 && reading.droppedPackets == 0)
        #expect(reading.bytesAcknowledged == 198_000)
        #expect(abs(reading.networkQueueingDelay - 0.03) < 1e-9)
        // 30 % loss within a second: those losses count as drops too.
        reading = gauge.measure(at: 3, bytesSent: 300_000, packetsSent: 300, packetsLost: 32, roundTrip: 0.05, queuedBytes: 0)
        #expect(reading.lostPackets == 32 && reading.droppedPackets == 30)
        // Delivered bytes never fall, even when the reported losses jump.
        let before = reading.bytesAcknowledged
        reading = gauge.measure(at: 3.1, bytesSent: 300_500, packetsSent: 301, packetsLost: 60, roundTrip: 0.05, queuedBytes: 0)
        #expect(reading.bytesAcknowledged >= before)
    }

    @Test func heavyLossReportedByRTCPStepsTheBitrateDown() {
        var controller = AdaptiveBitrateController(
            settings: AdaptiveBitrateSettings(minimumBitRate: 200_000, maximumBitRate: 2_000_000, initialBitRate: 2_000_000))
        var gauge = WHIPLinkGauge()
        var decision: BitrateDecision?
        // 2 Mb/s handed over in 1 kB packets, ten readings a second; from 3 s on the receiver loses 25 %.
        for step in 0...50 {
            let time = Double(step) / 10
            let packets = step * 25
            let lost = time > 3 ? (step - 30) * 25 / 4 : 0
            let transport = gauge.measure(
                at: time, bytesSent: packets * 1000, packetsSent: packets, packetsLost: lost, roundTrip: 0.001, queuedBytes: 0)
            let link = LinkMeasurement(
                time: time, bytesSent: packets * 1000, queuedSeconds: 0, queuedBytes: 0, isConnected: true, transport: transport)
            if let made = controller.update(link), made.direction == .down {
                decision = made
                break
            }
        }
        #expect(decision != nil, "no step down under 25 % loss")
        #expect(decision?.cause?.contains("dropped") == true, "\(String(describing: decision))")
        #expect((decision?.to ?? .max) < 2_000_000)
    }
}
#endif
