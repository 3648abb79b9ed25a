import Foundation
import OnAirTestSupport

/// What ffprobe says about a file a streaming test received.
struct StreamMediaCheck {
    var videoCodec = "", audioCodec = ""
    var width = 0, height = 0
    var frameRate = ""
    var duration = 0.0
    /// ffmpeg's complaints when decoding every stream fully (empty when clean). Frames pass through
    /// with their own timestamps (`-fps_mode passthrough`): on a loaded machine the live encoder
    /// drops late frames, and the gaps must not count as errors of the stream.
    var decodeErrors = ""

    /// Probes and fully decodes `path`.
    init(_ path: String) throws {
        let info = try Tools.ffprobeJSON(["-show_streams", "-show_format", path])
        let streams = info["streams"] as? [[String: Any]] ?? []
        if let video = streams.first(where: { $0["codec_type"] as? String == "video" }) {
            videoCodec = video["codec_name"] as? String ?? ""
            width = video["width"] as? Int ?? 0
            height = video["height"] as? Int ?? 0
            frameRate = video["r_frame_rate"] as? String ?? ""
        }
        if let audio = streams.first(where: { $0["codec_type"] as? String == "audio" }) {
            audioCodec = audio["codec_name"] as? String ?? ""
        }
        duration = Double((info["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
        let result = try Tools.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-fps_mode", "passthrough", "-f", "null", "-"])
        decodeErrors = result.status == 0 ? result.stderr : "exit \(result.status): \(result.stderr)"
    }

    /// Whether it holds H.264 of `width`×`height` at `rate` fps and AAC, and decodes without errors.
    func isH264AndAAC(width: Int, height: Int, rate: Int) -> Bool {
        videoCodec == "h264" && audioCodec == "aac" && self.width == width && self.height == height
            && frameRate == "\(rate)/1" && decodeErrors.isEmpty
    }
}
