#if os(Linux)
import OnAir

extension ServeCommand {
    static let subStreamHelp = """
          --sub-size WxH               also serve a sub stream: a second encode of the same capture
                                       at this size, at /sub.ts, /sub.mp4, /sub.m3u8, /sub/snapshot.jpg,
                                       rtsp://ADDR:N/sub, WHEP /sub/whep and SRT with streamid=sub (its own
                                       keyframes; the same AAC as /live); /live/whep is /whep
          --sub-fps N                  the sub stream's frame rate (default 5; frames taken from the capture)
          --sub-bitrate R              the sub stream's bitrate (default: the main bitrate scaled by pixels
                                       per second, at least 300k)
          --sub-codec h264|h265        the sub stream's codec (default: the main's); e.g. --codec h265
                                       --sub-codec h264: H.265 to record, H.264 for browsers and WebRTC

        """

    /// `--sub-size`, `--sub-fps`, `--sub-bitrate`: the sub stream, or none without `--sub-size`.
    static func subStream(_ arguments: inout ArgumentList) throws -> [VideoRendition] {
        let size = try arguments.option("--sub-size")
        let fps = try arguments.option("--sub-fps").map { try EncodingOptions.number($0, "--sub-fps") }
        let bitRate = try arguments.option("--sub-bitrate").map { try EncodingOptions.rate($0, "--sub-bitrate") }
        let codec = try arguments.option("--sub-codec").map { name in
            guard let codec = VideoRendition.videoCodec(named: name) else {
                throw UsageError("--sub-codec takes h264 or h265 (got '\(name)')")
            }
            return codec
        }
        guard let size else {
            if fps != nil || bitRate != nil || codec != nil {
                throw UsageError("--sub-fps, --sub-bitrate and --sub-codec need --sub-size")
            }
            return []
        }
        let parts = size.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw UsageError("--sub-size takes WIDTHxHEIGHT, e.g. 640x360 (got '\(size)')")
        }
        if let fps, fps <= 0 { throw UsageError("--sub-fps must be positive") }
        if let bitRate, bitRate <= 0 { throw UsageError("--sub-bitrate must be positive") }
        var rendition = VideoRendition(name: "sub", width: width, height: height, frameRate: fps ?? 5, bitRate: bitRate)
        rendition.codec = codec
        return [rendition]
    }
}
#endif
