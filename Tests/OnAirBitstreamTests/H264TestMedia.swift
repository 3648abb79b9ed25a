import Foundation
import OnAirBitstream
import OnAirTestSupport

/// Makes H.264 test streams with ffmpeg/libx264 and reads what ffprobe says about them.
enum H264TestMedia {
    /// The major version of the libavformat ffprobe runs on (`ffprobe -version`), 0 if unknown.
    static let ffprobeLibavformatMajor: Int = {
        let text = (try? Tools.run("ffprobe", ["-version"]).stdoutText) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("libavformat") } ?? ""
        let number = line.dropFirst("libavformat".count).drop { $0 == " " }.prefix { $0.isNumber }
        return Int(number) ?? 0
    }()

    /// Encodes `frames` frames of `testsrc2` at `size` and `rate` with libx264 and the extra output
    /// `arguments`, and returns the raw Annex-B bytes and the file's URL.
    static func encode(
        size: String = "320x240", rate: String = "25", frames: Int = 10,
        filter: String? = nil, _ arguments: [String]
    ) throws -> (bytes: [UInt8], url: URL) {
        let directory = try Tools.temporaryDirectory("onair-h264")
        let url = directory.appendingPathComponent("out.h264")
        var input = ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)", "-frames:v", "\(frames)"]
        if let filter { input += ["-vf", filter] }
        try Tools.ffmpeg(input + ["-c:v", "libx264"] + arguments + ["-f", "h264", url.path])
        return (Array(try Data(contentsOf: url)), url)
    }

    /// The first video stream's entry from `ffprobe -show_streams`.
    static func probeStream(_ url: URL) throws -> [String: Any] {
        let json = try Tools.ffprobeJSON(["-show_streams", "-select_streams", "v:0", url.path])
        guard let streams = json["streams"] as? [[String: Any]], let first = streams.first else {
            throw ToolError.failed("ffprobe found no video stream in \(url.path)")
        }
        return first
    }

    /// The decoded frames' `pict_type` and `key_frame`, from `ffprobe -show_frames`.
    static func probeFrames(_ url: URL) throws -> [(pictType: String, keyFrame: Bool)] {
        let json = try Tools.ffprobeJSON([
            "-show_frames", "-select_streams", "v:0",
            "-show_entries", "frame=pict_type,key_frame", url.path,
        ])
        guard let frames = json["frames"] as? [[String: Any]] else { return [] }
        return frames.map { (($0["pict_type"] as? String) ?? "?", (($0["key_frame"] as? Int) ?? 0) == 1) }
    }

    /// Remuxes an Annex-B file into MP4 with `-c:v copy` and returns the MP4's bytes.
    static func remuxToMP4(_ url: URL) throws -> [UInt8] {
        let mp4 = url.deletingPathExtension().appendingPathExtension("mp4")
        try Tools.ffmpeg(["-i", url.path, "-c:v", "copy", mp4.path])
        return Array(try Data(contentsOf: mp4))
    }

    /// The payload of the first `avcC` box in an MP4 file, found by walking
    /// moov/trak/mdia/minf/stbl/stsd/avc1.
    static func avcCPayload(inMP4 bytes: [UInt8]) -> [UInt8]? {
        findBox("avcC", in: bytes, range: 0..<bytes.count)
    }

    /// The payload of the first `hvcC` box in an MP4 file (under moov/…/stsd/hvc1 or hev1).
    static func hvcCPayload(inMP4 bytes: [UInt8]) -> [UInt8]? {
        findBox("hvcC", in: bytes, range: 0..<bytes.count)
    }

    /// Searches boxes in `range` (and the containers among them) for one of type `target`.
    private static func findBox(_ target: String, in bytes: [UInt8], range: Range<Int>) -> [UInt8]? {
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var size = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            var header = 8
            if size == 1, offset + 16 <= range.upperBound {
                size = bytes[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) }
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, offset + size <= range.upperBound else { return nil }
            let payload = (offset + header)..<(offset + size)
            if type == target { return Array(bytes[payload]) }
            let childOffset: Int?
            switch type {
            case "moov", "trak", "mdia", "minf", "stbl": childOffset = 0
            case "stsd": childOffset = 8
            case "avc1", "avc3", "hvc1", "hev1": childOffset = 78
            default: childOffset = nil
            }
            if let childOffset, payload.lowerBound + childOffset <= payload.upperBound,
                let found = findBox(target, in: bytes, range: (payload.lowerBound + childOffset)..<payload.upperBound)
            {
                return found
            }
            offset += size
        }
        return nil
    }

    /// Chroma format and bit depth implied by an FFmpeg pixel format name.
    static func chromaAndDepth(pixelFormat: String) -> (chroma: Int, depth: Int)? {
        let table: [String: (Int, Int)] = [
            "gray": (0, 8), "gray10le": (0, 10),
            "yuv420p": (1, 8), "yuvj420p": (1, 8), "yuv420p10le": (1, 10),
            "yuv422p": (2, 8), "yuvj422p": (2, 8), "yuv422p10le": (2, 10),
            "yuv444p": (3, 8), "yuvj444p": (3, 8), "yuv444p10le": (3, 10),
        ]
        return table[pixelFormat]
    }
}
