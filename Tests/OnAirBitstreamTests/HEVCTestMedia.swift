import Foundation
import OnAirBitstream
import OnAirTestSupport

/// Makes H.265 test streams with ffmpeg/libx265 and GStreamer's x265enc, at test time.
enum HEVCTestMedia {
    /// Encodes `frames` frames of `testsrc2` at `size` with libx265 (ultrafast) and the extra
    /// `x265-params`, and returns the Annex-B bytes and the file's URL.
    static func libx265(
        size: String = "320x240", rate: String = "25", frames: Int = 12, pixelFormat: String = "yuv420p",
        params: String = "keyint=6:forced-idr=1:repeat-headers=1:open-gop=0", _ arguments: [String] = []
    ) throws -> (bytes: [UInt8], url: URL) {
        let directory = try Tools.temporaryDirectory("onair-hevc")
        let url = directory.appendingPathComponent("out.hevc")
        try Tools.ffmpeg(
            ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)", "-frames:v", "\(frames)", "-pix_fmt", pixelFormat]
                + ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", params + ":log-level=error"] + arguments
                + ["-f", "hevc", url.path])
        return (Array(try Data(contentsOf: url)), url)
    }

    /// Encodes ten frames of `videotestsrc` at `width`x`height` with GStreamer's x265enc, as
    /// h265parse hands them on as a byte stream.
    static func x265enc(width: Int = 320, height: Int = 240) throws -> (bytes: [UInt8], url: URL) {
        let directory = try Tools.temporaryDirectory("onair-hevc-gst")
        let url = directory.appendingPathComponent("out.hevc")
        let pipeline =
            "videotestsrc num-buffers=10 ! video/x-raw,format=I420,width=\(width),height=\(height),framerate=30/1 ! "
            + "x265enc speed-preset=ultrafast key-int-max=5 ! h265parse ! video/x-h265,stream-format=byte-stream ! "
            + "filesink location=\(url.path)"
        let result = try Tools.run("gst-launch-1.0", ["-q"] + pipeline.split(separator: " ").map(String.init), timeout: 60)
        guard result.status == 0 else { throw ToolError.failed("gst-launch-1.0 x265enc: \(result.stderr)") }
        return (Array(try Data(contentsOf: url)), url)
    }

    /// Copies an H.265 elementary stream into MP4 tagged `tag` and returns the file's `hvcC` payload.
    static func hvcC(remuxing url: URL, tag: String = "hvc1") throws -> [UInt8] {
        let mp4 = url.deletingPathExtension().appendingPathExtension("mp4")
        try Tools.ffmpeg(["-i", url.path, "-c:v", "copy", "-tag:v", tag, mp4.path])
        guard let payload = H264TestMedia.hvcCPayload(inMP4: Array(try Data(contentsOf: mp4))) else {
            throw ToolError.failed("no hvcC box in \(mp4.path)")
        }
        return payload
    }
}
