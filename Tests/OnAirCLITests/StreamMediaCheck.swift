#if os(Linux)
import Foundation
import OnAirTestSupport

/// What ffprobe says about a file a streaming test received.
struct StreamMediaCheck: CustomStringConvertible {
    var videoCodec = "", audioCodec = ""
    var width = 0, height = 0
    var duration = 0.0
    /// Video frames decoded.
    var videoFrames = 0
    /// ffprobe's complaints when decoding every frame of every stream (empty when clean).
    ///
    /// ffprobe decodes without muxing again: `ffmpeg -f null` would also complain about two live
    /// capture timestamps that round to the same tick of its output time base, which is not an
    /// error of the stream.
    var decodeErrors = ""

    /// Probes and fully decodes `path`.
    init(_ path: String) throws {
        let info = try Tools.ffprobeJSON(["-show_streams", "-show_format", path])
        let streams = info["streams"] as? [[String: Any]] ?? []
        if let video = streams.first(where: { $0["codec_type"] as? String == "video" }) {
            videoCodec = video["codec_name"] as? String ?? ""
            width = video["width"] as? Int ?? 0
            height = video["height"] as? Int ?? 0
        }
        if let audio = streams.first(where: { $0["codec_type"] as? String == "audio" }) {
            audioCodec = audio["codec_name"] as? String ?? ""
        }
        duration = Double((info["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
        let result = try Tools.run("ffprobe", ["-v", "error", "-show_entries", "frame=media_type", "-of", "csv=p=0", path])
        // A frame with side data prints as "video," (an empty extra column), so match the first column.
        videoFrames = result.stdoutText.split(separator: "\n").filter { $0.split(separator: ",").first == "video" }.count
        decodeErrors = result.status == 0 ? result.stderr : "exit \(result.status): \(result.stderr)"
    }

    /// Decoded video frames per second of media.
    var frameRate: Double { duration > 0 ? Double(videoFrames) / duration : 0 }

    /// Whether it holds H.264 of `width`×`height` at about `rate` fps and AAC, and decodes without
    /// errors. (The live encoder may drop a few late frames on a loaded machine: 80 % of the rate pass.)
    func isH264AndAAC(width: Int, height: Int, rate: Int) -> Bool {
        videoCodec == "h264" && audioCodec == "aac" && self.width == width && self.height == height
            && frameRate >= 0.8 * Double(rate) && frameRate <= Double(rate) + 1.5 && decodeErrors.isEmpty
    }

    var description: String {
        "\(videoCodec) \(width)x\(height) \(videoFrames) frames (\(String(format: "%.1f", frameRate)) fps) + \(audioCodec), \(duration) s, decode errors: \(decodeErrors.isEmpty ? "none" : decodeErrors)"
    }
}
#endif
