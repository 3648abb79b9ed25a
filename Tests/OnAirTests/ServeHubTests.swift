#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

@testable import OnAir
@testable import OnAirServing

/// The fan-out hub without a network: keyframe cache, bounded queues, skips and limits.
@Suite struct ServeHubTests {
    /// A chunk published at `time` (seconds on the hub's clock; the system's monotonic clock unless given).
    static func chunk(_ size: Int, key: Bool, at time: Double = ServeHub.uptime()) -> ServeChunk {
        ServeChunk(bytes: [UInt8](repeating: key ? 1 : 0, count: size), isKeyframe: key, published: time)
    }

    static func drain(_ viewer: ServeViewer) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let read = buffer.withUnsafeMutableBytes { viewer.read(into: $0, wait: 0.01) }
            guard case .bytes(let count) = read else { break }
            out += buffer[0..<count]
        }
        return out
    }

    @Test func aNewViewerStartsWithTheHeaderAndTheLastKeyframe() throws {
        let hub = ServeHub(formats: [.fragmentedMP4])
        hub.setHeader([9, 9], for: .fragmentedMP4)
        hub.publish(Self.chunk(3, key: false), to: .fragmentedMP4)
        hub.publish(Self.chunk(2, key: true), to: .fragmentedMP4)
        hub.publish(Self.chunk(4, key: false), to: .fragmentedMP4)
        let viewer = try hub.openViewer(format: .fragmentedMP4, transport: "test", peer: "here")
        #expect(Self.drain(viewer) == [9, 9, 1, 1, 0, 0, 0, 0])
        hub.publish(Self.chunk(1, key: false), to: .fragmentedMP4)
        #expect(Self.drain(viewer) == [0])
        #expect(viewer.statistics().firstKeyframeSeconds != nil)
    }

    @Test func aFullQueueSkipsToTheNextKeyframeAndAStuckViewerIsCut() throws {
        var limits = ServeHub.Limits()
        limits.viewerQueueBytes = 100
        limits.viewerTimeout = .milliseconds(200)
        let clock = Locked(1000.0)
        let hub = ServeHub(formats: [.mpegTS], limits: limits) { clock.current }
        hub.publish(Self.chunk(10, key: true, at: clock.current), to: .mpegTS)
        let viewer = try hub.openViewer(format: .mpegTS, transport: "test", peer: "slow")
        for _ in 0..<20 { hub.publish(Self.chunk(10, key: false, at: clock.current), to: .mpegTS) }
        #expect(viewer.statistics().skips == 1)
        // Waiting for a keyframe: the deltas are dropped, the keyframe is kept.
        hub.publish(Self.chunk(10, key: true, at: clock.current), to: .mpegTS)
        let stats = viewer.statistics()
        #expect(stats.queueBytes <= 100 && stats.droppedChunks > 0)
        // Just short of the 200 ms timeout the viewer is kept; past it, cut.
        clock.withLock { $0 += 0.19 }
        #expect(!viewer.cutIfTooFarBehind() && viewer.endReason == nil)
        clock.withLock { $0 += 0.02 }
        var buffer = [UInt8](repeating: 0, count: 8)
        let read = buffer.withUnsafeMutableBytes { viewer.read(into: $0, wait: 0.01) }
        #expect(read == .cut)
        viewer.close()
        #expect(hub.statistics().totals.cutTooSlow == 1)
    }

    @Test func viewersBeyondTheLimitAreRefusedAndSlotsComeBack() throws {
        var limits = ServeHub.Limits()
        limits.maxViewers = 2
        let hub = ServeHub(formats: [.mpegTS], limits: limits)
        let first = try hub.openViewer(format: .mpegTS, transport: "test", peer: "a")
        _ = try hub.openViewer(format: .mpegTS, transport: "test", peer: "b")
        #expect(throws: ServeRefusal.full(maximum: 2)) { try hub.openViewer(format: .mpegTS, transport: "test", peer: "c") }
        first.close()
        _ = try hub.openViewer(format: .mpegTS, transport: "test", peer: "c")
        #expect(hub.statistics().totals.refusedFull == 1)
        hub.close()
        #expect(throws: ServeRefusal.stopping) { try hub.openViewer(format: .mpegTS, transport: "test", peer: "d") }
    }

    @Test func playlistLinesCarryTheTokenAndOnlySegmentNamesAreServed() {
        let playlist = Array("#EXTM3U\n#EXTINF:2.0,\nsegment_3.ts\n".utf8)
        #expect(
            String(decoding: ServeServer.playlist(playlist, query: "?token=t"), as: UTF8.self)
                == "#EXTM3U\n#EXTINF:2.0,\nsegment_3.ts?token=t\n")
        #expect(ServeServer.isSegmentName("segment_12.ts"))
        for name in ["segment_.ts", "segment_1.ts.bak", "../segment_1.ts", "stream.m3u8", "segment_a.ts"] {
            #expect(!ServeServer.isSegmentName(name), "\(name)")
        }
    }
}
#endif
