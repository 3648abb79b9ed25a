#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair serve`'s `/snapshot.jpg`: a JPEG (FFmpeg's mjpeg) of the stream's size from its latest keyframe.
@Suite struct ServeSnapshotTests {
    @Test func snapshotIsAJPEGOfTheStreamSize() throws {
        let dir = try Tools.temporaryDirectory("snapshot")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeTestServer(directory: dir, duration: 20)
        defer { _ = server.finish(timeout: 0) }
        var reply = (status: 0, body: Data())
        // 503 until the first keyframe is encoded.
        #expect(
            waitUntil(timeout: 10) {
                reply = (try? server.get("/snapshot.jpg")) ?? (0, Data()); return reply.status == 200
            })
        let path = dir.appendingPathComponent("snapshot.jpg").path
        try reply.body.write(to: URL(fileURLWithPath: path))
        let info = try Tools.ffprobeJSON(["-show_streams", path])
        let stream = (info["streams"] as? [[String: Any]])?.first
        #expect(stream?["codec_name"] as? String == "mjpeg")
        #expect(stream?["width"] as? Int == 320 && stream?["height"] as? Int == 240)
        #expect(try RecordCommandTests.decodesCleanly(path).isEmpty)
        // Many requests at once are answered (from the cache).
        for _ in 0..<20 { #expect(try server.get("/snapshot.jpg").status == 200) }
    }
}
#endif
