import Foundation
import OnAir
import OnAirTestSupport

/// Test helpers: raw yuv420p/f32le bytes in and out of ffmpeg, and presentation times from ffprobe.
enum SyntheticTestMedia {
    /// Generates `count` frames at `frameRate` whose capture times start at `start` seconds.
    static func frames(_ video: SyntheticVideo, count: Int, start: Double = 0) -> [VideoFrame] {
        (0..<count).map { index in
            let micros = Int64((start * 1_000_000).rounded()) + Int64(index) * 1_000_000 * 1000 / Int64(video.frameRate * 1000)
            return video.frame(index: index, captureTime: MediaTime(value: micros, timescale: 1_000_000))
        }
    }

    /// The frames' planes back to back, as ffmpeg's rawvideo yuv420p expects.
    static func rawVideo(_ frames: [VideoFrame]) -> Data {
        var data = Data()
        for frame in frames { for plane in frame.planes { data.append(contentsOf: plane.bytes) } }
        return data
    }

    /// Splits raw yuv420p bytes into frames, stamping them with `pts` (or 0 when `pts` runs out).
    static func splitRawVideo(_ data: Data, width: Int, height: Int, pts: [Double] = []) -> [VideoFrame] {
        let lumaSize = width * height, chromaWidth = (width + 1) / 2, chromaSize = chromaWidth * ((height + 1) / 2)
        let frameSize = lumaSize + 2 * chromaSize
        let bytes = [UInt8](data)
        return (0..<(bytes.count / frameSize)).map { n in
            let base = n * frameSize
            let planes = [
                VideoFrame.Plane(bytes: Array(bytes[base..<(base + lumaSize)]), bytesPerRow: width),
                VideoFrame.Plane(bytes: Array(bytes[(base + lumaSize)..<(base + lumaSize + chromaSize)]), bytesPerRow: chromaWidth),
                VideoFrame.Plane(bytes: Array(bytes[(base + lumaSize + chromaSize)..<(base + frameSize)]), bytesPerRow: chromaWidth),
            ]
            return VideoFrame(
                width: width, height: height, pixelFormat: .yuv420p, planes: planes,
                pts: MediaTime(seconds: n < pts.count ? pts[n] : 0))
        }
    }

    /// Decodes a file's first video stream to raw yuv420p, one output frame per decoded frame.
    static func decodeVideo(_ file: URL) throws -> Data {
        let result = try Tools.run(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-loglevel", "error", "-i", file.path,
                "-map", "0:v:0", "-fps_mode", "passthrough",
                "-f", "rawvideo", "-pix_fmt", "yuv420p", "-",
            ])
        guard result.status == 0 else { throw ToolError.failed("ffmpeg decode: \(result.stderr)") }
        return result.stdout
    }

    /// Decodes a file's first audio stream to interleaved f32le at its own rate and channel count,
    /// padded with silence from file time 0 when `fromZero` so sample 0 sits at file time 0.
    static func decodeAudio(_ file: URL, channels: Int, fromZero: Bool = false) throws -> Data {
        var args = ["-hide_banner", "-nostdin", "-loglevel", "error", "-i", file.path, "-map", "0:a:0"]
        if fromZero { args += ["-af", "aresample=async=1:first_pts=0"] }
        args += ["-f", "f32le", "-ac", "\(channels)", "-"]
        let result = try Tools.run("ffmpeg", args)
        guard result.status == 0 else { throw ToolError.failed("ffmpeg decode: \(result.stderr)") }
        return result.stdout
    }

    /// The presentation times, in seconds, of every decoded frame of the file's first video stream.
    static func videoFrameTimes(_ file: URL) throws -> [Double] {
        let json = try Tools.ffprobeJSON([
            "-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time",
            file.path,
        ])
        let frames = json["frames"] as? [[String: Any]] ?? []
        return frames.compactMap { ($0["best_effort_timestamp_time"] as? String).flatMap(Double.init) }
    }

    /// An interleaved f32 PCM buffer over raw f32le bytes, starting at `start` seconds.
    static func pcm(_ data: Data, sampleRate: Int, channels: Int, start: Double = 0) -> PCMBuffer {
        let frames = data.count / (4 * channels)
        return PCMBuffer(
            sampleFormat: .f32, isPlanar: false, sampleRate: sampleRate, channels: channels,
            frameCount: frames, planes: [[UInt8](data.prefix(frames * 4 * channels))],
            pts: MediaTime(seconds: start))
    }
}
