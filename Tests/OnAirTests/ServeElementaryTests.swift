#if os(Linux)
import Foundation
import OnAirTestSupport
import OnAirCore
import Synchronization
import Testing

@testable import OnAir
@testable import OnAirServing

/// The hub's elementary form (RTSP's feed) without a network: whole packets from the last
/// keyframe, the same skips, and a cut for a transport that stopped taking.
@Suite struct ServeElementaryTests {
    static func packet(_ type: MediaType, index: Int, key: Bool, size: Int = 10) -> EncodedPacket {
        let time = MediaTime(value: Int64(index), timescale: 30)
        return EncodedPacket(
            mediaType: type, codec: type == .video ? .h264 : .aac, data: [UInt8](repeating: UInt8(index & 0xFF), count: size),
            pts: time, dts: time, duration: MediaTime(value: 1, timescale: 30), isKeyframe: key,
            formatDescription: type == .audio && index == 0 ? .aac(audioSpecificConfig: [0x11, 0x90]) : nil)
    }

    static func take(_ viewer: ServeViewer) -> [EncodedPacket] {
        var packets: [EncodedPacket] = []
        while case .chunk(let chunk) = viewer.readChunk(wait: 0.01), let packet = chunk.packet { packets.append(packet) }
        return packets
    }

    @Test func aViewerGetsWholePacketsFromTheLastKeyframeAndTheSinkKeepsTheDescriptions() throws {
        let hub = ServeHub(formats: [.elementary])
        let sink = ServeElementarySink(streams: [.video, .audio], hub: hub)
        try sink.write(Self.packet(.audio, index: 0, key: true))  // before the first keyframe: left out
        try sink.write(Self.packet(.video, index: 1, key: true))
        try sink.write(Self.packet(.audio, index: 2, key: true))
        try sink.write(Self.packet(.video, index: 3, key: false))
        try sink.write(Self.packet(.video, index: 4, key: true))
        try sink.write(Self.packet(.audio, index: 5, key: true))
        let viewer = try hub.openViewer(format: .elementary, transport: "rtsp", peer: "here")
        let first = Self.take(viewer)
        #expect(first.map { $0.pts.value } == [4, 5] && first.map(\.mediaType) == [.video, .audio])
        try sink.write(Self.packet(.video, index: 6, key: false, size: 1234))
        let next = Self.take(viewer)
        #expect(next.count == 1 && next[0].byteCount == 1234)
        #expect(sink.formatDescription(of: .audio) == .aac(audioSpecificConfig: [0x11, 0x90]))
        let figures = viewer.statistics()
        #expect(figures.packetsSent == 3 && figures.format == .elementary)
        viewer.setTransport("rtsp/tcp")
        #expect(viewer.statistics().transport == "rtsp/tcp")
    }

    @Test func aViewerWhoseTransportStoppedTakingSkipsAndIsCut() throws {
        var limits = ServeHub.Limits()
        limits.viewerQueueBytes = 100
        limits.viewerTimeout = .milliseconds(200)
        let hub = ServeHub(formats: [.elementary], limits: limits)
        let sink = ServeElementarySink(streams: [.video], hub: hub)
        try sink.write(Self.packet(.video, index: 0, key: true))
        let viewer = try hub.openViewer(format: .elementary, transport: "rtsp", peer: "stalled")
        for index in 1...20 { try sink.write(Self.packet(.video, index: index, key: false)) }
        #expect(viewer.statistics().skips == 1)
        #expect(!viewer.cutIfTooFarBehind())
        #expect(viewer.cutReason == nil)
        letTimePass(0.3, "past the 200 ms viewer timeout (the hub reads the real clock)")
        let events = Mutex<[ServeHub.ViewerEvent]>([])
        hub.setViewerObserver { event in events.withLock { $0.append(event) } }
        #expect(viewer.cutIfTooFarBehind(context: "held back: 300000 bytes waiting"))
        #expect(viewer.readChunk(wait: 0).isCut)
        // The cut says how far behind the viewer was, and why its transport stopped taking.
        let reason = try #require(viewer.cutReason)
        #expect(
            reason.hasPrefix("too slow: skipping for") && reason.contains("(1 skips)")
                && reason.hasSuffix("; held back: 300000 bytes waiting"),
            "\(reason)")
        viewer.close()
        #expect(hub.statistics().totals.cutTooSlow == 1)
        #expect(events.withLock { $0 } == [.left(id: viewer.id, transport: "rtsp", peer: "stalled", cut: reason)])
    }

    @Test func videoThatIsNotAnnexBWithParameterSetsIsRefused() {
        let hub = ServeHub(formats: [.elementary])
        let sink = ServeElementarySink(streams: [.video], hub: hub)
        var packet = Self.packet(.video, index: 0, key: true)
        packet.form = .avcc
        #expect(throws: SinkError.self) { try sink.write(packet) }
    }
}

extension ServeViewer.ChunkRead {
    var isCut: Bool {
        if case .cut = self { return true }
        return false
    }
}
#endif
