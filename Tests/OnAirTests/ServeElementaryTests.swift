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

    /// A hub whose viewers queue 100 bytes and are cut `timeout` behind, its sink past a keyframe.
    /// A hub whose viewers queue 100 bytes and are cut `timeout` behind, on a clock the test steps
    /// (seconds, from 1000), with a keyframe published.
    static func smallQueues(timeout: Duration) throws -> (ServeHub, ServeElementarySink, Locked<Double>) {
        var limits = ServeHub.Limits()
        limits.viewerQueueBytes = 100
        limits.viewerTimeout = timeout
        let clock = Locked(1000.0)
        let hub = ServeHub(formats: [.elementary], limits: limits) { clock.current }
        let sink = ServeElementarySink(streams: [.video], hub: hub)
        try sink.write(Self.packet(.video, index: 0, key: true))
        return (hub, sink, clock)
    }

    /// A hub whose viewers queue 100 bytes and are cut 200 ms behind, with one viewer that took
    /// nothing of a keyframe and 20 frames after it (so it skipped once).
    static func stalledViewer(
        transport: String, peer: String
    ) throws -> (ServeHub, ServeElementarySink, ServeViewer, Locked<Double>) {
        let (hub, sink, clock) = try smallQueues(timeout: .milliseconds(200))
        let viewer = try hub.openViewer(format: .elementary, transport: transport, peer: peer)
        for index in 1...20 { try sink.write(Self.packet(.video, index: index, key: false)) }
        return (hub, sink, viewer, clock)
    }

    @Test func aViewerWhoseTransportStoppedTakingSkipsAndIsCut() throws {
        let (hub, _, viewer, clock) = try Self.stalledViewer(transport: "rtsp", peer: "stalled")
        #expect(viewer.statistics().skips == 1)
        #expect(!viewer.cutIfTooFarBehind())
        #expect(viewer.cutReason == nil)
        clock.withLock { $0 += 0.19 }
        #expect(!viewer.cutIfTooFarBehind(), "short of the 200 ms timeout")
        clock.withLock { $0 += 0.11 }
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

    @Test func aViewerThatReadsNothingIsCutWhenTheNextChunkComesAndItsTransportTold() throws {
        let (hub, sink, viewer, clock) = try Self.stalledViewer(transport: "http", peer: "stopped reading")
        let told = Locked(0)
        viewer.whenCut { told.withLock { $0 += 1 } }
        #expect(viewer.endReason == nil && told.current == 0)
        clock.withLock { $0 += 0.3 }  // past the 200 ms viewer timeout
        try sink.write(Self.packet(.video, index: 21, key: true))
        #expect(viewer.endReason == .tooSlow && told.current == 1)
        #expect(viewer.cutReason?.hasSuffix("; found when a chunk was published") == true, "\(viewer.cutReason ?? "-")")
        try sink.write(Self.packet(.video, index: 22, key: false))
        viewer.whenCut { told.withLock { $0 += 1 } }  // already cut: at once
        #expect(told.current == 2 && viewer.readChunk(wait: 0).isCut)
        viewer.close()
        #expect(hub.statistics().totals.cutTooSlow == 1)
    }

    @Test func aViewerThatEmptiesItsQueueYetKeepsSkippingIsCutAndOneSkipIsForgiven() throws {
        let (hub, sink, clock) = try Self.smallQueues(timeout: .milliseconds(400))
        let slow = try hub.openViewer(format: .elementary, transport: "http", peer: "behind a full socket")
        let steady = try hub.openViewer(format: .elementary, transport: "http", peer: "one hiccup")
        var index = 1
        // A burst past the queue of those taking nothing meanwhile (a skip each), then everything
        // taken: they look caught up. `keeping` take each packet as it comes.
        func burst(skipping: [ServeViewer], keeping: [ServeViewer] = []) throws {
            for _ in 0..<12 {
                try sink.write(Self.packet(.video, index: index, key: index % 4 == 0))
                index += 1
                for viewer in keeping { while case .chunk = viewer.readChunk(wait: 0) {} }
            }
            for viewer in skipping { while case .chunk = viewer.readChunk(wait: 0) {} }
        }
        try burst(skipping: [slow, steady])
        #expect(slow.statistics().skips == 1 && steady.statistics().skips == 1)
        #expect(slow.endReason == nil)
        clock.withLock { $0 += 0.15 }  // a run of skips still shorter than the 400 ms timeout
        try burst(skipping: [slow], keeping: [steady])
        #expect(slow.endReason == nil, "a run of skips shorter than the timeout")
        clock.withLock { $0 += 0.3 }  // the slow one's skips now span more than the timeout, each within twice it of the last
        try burst(skipping: [slow], keeping: [steady])
        #expect(slow.endReason == .tooSlow, "\(slow.statistics())")
        #expect(slow.cutReason?.contains("skips kept coming for") == true, "\(slow.cutReason ?? "-")")
        // The other skipped once, long ago, and keeps up: not cut.
        #expect(steady.endReason == nil && steady.statistics().skips == 1)
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
