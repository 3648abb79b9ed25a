#if os(Linux)
import OnAirGStreamer
import Testing

@Suite struct GStreamerLibraryTests {
    @Test func startsOnceAndFindsThePayloaders() throws {
        try GStreamerLibrary.start()
        try GStreamerLibrary.start()
        #expect(GStreamerLibrary.version.hasPrefix("1."))
        try GStreamerLibrary.require(elements: ["appsrc", "rtph264pay", "rtpmp4gpay"])
        #expect(throws: GStreamerError.missingElement("onair-no-such-element")) {
            try GStreamerLibrary.require(elements: ["onair-no-such-element"])
        }
    }
}
#endif
