#if os(Linux)
import Foundation
import Testing

@testable import OnAirServing

/// The paths of a further encode (the sub stream) and the hub's streams kept apart by rendition.
@Suite struct ServeRenditionRouteTests {
    @Test func subPathsRouteToTheirRenditionAndNothingElseDoes() {
        let names = ["sub"]
        #expect(ServeRenditionRoute(["sub.ts"], renditions: names) == .stream(rendition: "sub", format: .mpegTS))
        #expect(ServeRenditionRoute(["sub.mp4"], renditions: names) == .stream(rendition: "sub", format: .fragmentedMP4))
        #expect(ServeRenditionRoute(["sub.m3u8"], renditions: names) == .playlist(rendition: "sub"))
        #expect(ServeRenditionRoute(["sub", "segment_7.ts"], renditions: names) == .segment(rendition: "sub", name: "segment_7.ts"))
        #expect(ServeRenditionRoute(["sub", "snapshot.jpg"], renditions: names) == .snapshot(rendition: "sub"))
        // The main encode's paths, unknown names and anything else under the folder are not routes.
        for segments in [
            ["live.ts"], ["snapshot.jpg"], ["sub"], ["sub.es"], ["subs.ts"], ["sub", "stream.m3u8"], ["sub", "segment_x.ts"],
            ["sub", "a", "snapshot.jpg"], ["other", "snapshot.jpg"],
        ] {
            #expect(ServeRenditionRoute(segments, renditions: names) == nil, "\(segments)")
        }
        #expect(ServeRenditionRoute(["sub.ts"], renditions: []) == nil)
    }

    @Test func anSRTCallerChoosesTheSubStreamByItsStreamID() {
        let names = ["sub"]
        for (id, expected) in [
            (nil, "live"), ("", "live"), ("live", "live"), ("sub", "sub"), ("#!::r=sub,m=request", "sub"), ("#!::m=request,r=sub", "sub"),
            ("#!::m=request", "live"), ("#!::r=live", "live"), ("other", nil), ("#!::r=other", nil), ("sub/x", nil),
        ] as [(String?, String?)] {
            #expect(ServeSRTListener.rendition(forStreamID: id, renditions: names) == expected, "\(id ?? "nil")")
        }
    }

    @Test func aSubPlaylistNamesItsSegmentsInItsFolder() {
        let playlist = Array("#EXTM3U\n#EXTINF:2.0,\nsegment_3.ts\n".utf8)
        let text = String(decoding: ServeServer.playlist(playlist, query: "?token=t", folder: "sub/"), as: UTF8.self)
        #expect(text == "#EXTM3U\n#EXTINF:2.0,\nsub/segment_3.ts?token=t\n")
    }

    @Test func eachRenditionHasStreamsOfItsOwn() throws {
        let hub = ServeHub(formats: [.mpegTS], renditions: ["sub"])
        #expect(hub.renditions == ["sub"])
        #expect(hub.serves(.mpegTS, rendition: "sub") && !hub.serves(.mpegTS, rendition: "other"))
        let main = try hub.openViewer(format: .mpegTS, transport: "http", peer: "a")
        let sub = try hub.openViewer(format: .mpegTS, rendition: "sub", transport: "http", peer: "b")
        hub.publish(ServeHubTests.chunk(10, key: true), to: .mpegTS, rendition: "sub")
        #expect(ServeHubTests.drain(sub).count == 10)
        #expect(ServeHubTests.drain(main).isEmpty)
        // Both count against the one viewer limit.
        #expect(hub.statistics().totals.viewers == 2)
        main.close()
        sub.close()
    }
}
#endif

#if os(Linux)
extension ServeRenditionRouteTests {
    @Test func fragmentedMP4PlaylistsNameTheirInitSectionAndSegmentsInTheFolderWithTheToken() {
        let playlist = Array("#EXTM3U\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:2.0,\nsegment_3.m4s\n".utf8)
        let text = String(decoding: ServeServer.playlist(playlist, query: "?token=t", folder: "sub/"), as: UTF8.self)
        #expect(text == "#EXTM3U\n#EXT-X-MAP:URI=\"sub/init.mp4?token=t\"\n#EXTINF:2.0,\nsub/segment_3.m4s?token=t\n")
        for name in ["init.mp4", "init_2.mp4", "segment_0.m4s", "segment_12.ts"] { #expect(ServeServer.isSegmentName(name), "\(name)") }
        for name in ["init_.mp4", "init_x.mp4", "segment_.m4s", "segment_1.mp4", "stream.m3u8", "init.m4s"] {
            #expect(!ServeServer.isSegmentName(name), "\(name)")
        }
        #expect(ServeRenditionRoute(["sub", "init.mp4"], renditions: ["sub"]) == .segment(rendition: "sub", name: "init.mp4"))
        #expect(ServeHLSDiscontinuities.segmentNumber("segment_4.m4s") == nil && ServeHLSDiscontinuities.segmentNumber("segment_4.ts") == 4)
    }
}
#endif
