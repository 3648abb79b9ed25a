#if os(Linux)
import Foundation
import OnAirCore
import OnAirTestSupport

@testable import OnAirFFmpeg

/// Runs blocking FFmpeg work on its own thread (never on the cooperative pool) and awaits the result.
func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }
        thread.stackSize = 4 << 20
        thread.start()
    }
}

/// A moving gradient with noise, so that the encoder has real work and rate control shows.
func testPattern(width: Int, height: Int, index: Int, fps: Double = 30, noise: Int = 24) -> VideoFrame {
    var frame = VideoFrame(
        width: width, height: height, pixelFormat: .yuv420p,
        pts: MediaTime(value: Int64(index) * Int64((1_000_000 / fps).rounded()), timescale: 1_000_000))
    var seed = UInt32(truncatingIfNeeded: index &* 2_654_435_761 &+ 1)
    for y in 0..<height {
        for x in 0..<width {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let base = (x + y + index * 4) & 0xFF
            let jitter = noise > 0 ? Int(seed >> 24) % noise : 0
            frame.planes[0].bytes[y * width + x] = UInt8(truncatingIfNeeded: base + jitter)
        }
    }
    let cw = (width + 1) / 2, ch = (height + 1) / 2
    for y in 0..<ch {
        for x in 0..<cw {
            frame.planes[1].bytes[y * cw + x] = UInt8(truncatingIfNeeded: 128 + (x - index) % 64)
            frame.planes[2].bytes[y * cw + x] = UInt8(truncatingIfNeeded: 128 + (y + index) % 64)
        }
    }
    return frame
}

/// The result of encoding a short synthetic clip.
struct EncodedClip: Sendable {
    var packets: [EncodedPacket]
    /// How many packets each `encode` call returned, in order.
    var packetsPerCall: [Int]
    var selection: EncoderSelection
    var level: H264Level
    var file: URL
}

/// Encodes `frameCount` pattern frames, forcing IDRs at `forced`, and writes the Annex-B stream to a file.
func encodeClip(
    _ settings: VideoEncoderSettings, frames frameCount: Int, forced: Set<Int> = [],
    rateChange: (atFrame: Int, average: Int, limits: [DataRateLimit])? = nil,
    hardware: HardwareAvailability = .all
) async throws -> EncodedClip {
    try await onDedicatedThread {
        let encoder = try H264Encoder(settings: settings, hardware: hardware)
        var packets: [EncodedPacket] = [], perCall: [Int] = []
        for index in 0..<frameCount {
            if let change = rateChange, change.atFrame == index {
                try encoder.setBitRate(average: change.average, dataRateLimits: change.limits)
            }
            let frame = testPattern(width: settings.width, height: settings.height, index: index, fps: settings.expectedFrameRate)
            let out = try encoder.encode(frame, forceKeyFrame: forced.contains(index))
            perCall.append(out.count)
            packets += out
        }
        packets += try encoder.flush()
        let file = try Tools.temporaryDirectory("onair-h264").appendingPathComponent("clip.h264")
        try Data(packets.flatMap(\.data)).write(to: file)
        return EncodedClip(packets: packets, packetsPerCall: perCall, selection: encoder.selection, level: encoder.level, file: file)
    }
}

/// ffprobe's view of the video stream and its frames (in display order).
func probeVideo(_ file: URL, frames: Bool = false) throws -> (stream: [String: Any], frames: [[String: Any]]) {
    var arguments = ["-select_streams", "v:0", "-show_streams"]
    if frames { arguments += ["-show_frames", "-show_entries", "frame=pict_type,key_frame,pts,coded_picture_number"] }
    let json = try Tools.ffprobeJSON(arguments + ["-f", "h264", file.path])
    let stream = (json["streams"] as? [[String: Any]])?.first ?? [:]
    return (stream, json["frames"] as? [[String: Any]] ?? [])
}
#endif
