#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// Rate control on natural content: the average bitrate hits the target and the data-rate
/// limit holds in every one-second window.
@Suite(.serialized) struct BitrateAccuracyTests {
    /// 30 s of a noisy moving source (a moving test picture with temporal film-grain noise, so
    /// every frame carries fresh detail the encoder must spend bits on), stored near-losslessly.
    /// A Mandelbrot zoom, whose complexity keeps rising, makes single-pass x264 overshoot by
    /// 9–14 % here (ffmpeg's own libx264 by 9–24 %): see the closing note of the encoder issue.
    static let natural: Result<String, any Error> = Result {
        let dir = try Tools.temporaryDirectory("bitrate-input")
        let path = dir.appendingPathComponent("natural.mkv").path
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=960x540:rate=30,noise=alls=10:allf=t+u", "-t", "30",
            "-c:v", "libx264", "-preset", "ultrafast", "-crf", "10", path,
        ])
        return path
    }

    /// Packet sizes and decode times of the video stream.
    static func packets(_ path: String) throws -> [(dts: Double, bytes: Int)] {
        let json = try Tools.ffprobeJSON(["-select_streams", "v", "-show_entries", "packet=dts_time,size", path])
        return (json["packets"] as? [[String: Any]] ?? []).compactMap { packet in
            guard let dts = Double(packet["dts_time"] as? String ?? ""), let size = Int(packet["size"] as? String ?? "") else { return nil }
            return (dts, size)
        }
    }

    @Test(arguments: [1_000_000, 4_000_000])
    func averageWithinTenPercentAndLimitHeldPerSecond(_ target: Int) throws {
        let input = try Self.natural.get()
        let dir = try Tools.temporaryDirectory("bitrate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("out.mp4").path
        let limitBytes = target * 3 / 2 / 8  // 1.5 × average over one second
        let result = try Tools.run(
            Tools.onairExecutable,
            [
                "encode", input, "-o", output, "--bitrate", String(target), "--data-rate-limit", "\(limitBytes):1",
                "--keyint", "60", "--preset", "veryfast",
            ])
        #expect(result.status == 0, "\(result.stderr)")

        let packets = try Self.packets(output)
        #expect(packets.count == 900)
        let duration = Double(packets.count) / 30
        let average = Double(packets.map(\.bytes).reduce(0, +) * 8) / duration
        #expect(abs(average - Double(target)) <= 0.1 * Double(target), "average \(Int(average)) b/s for target \(target)")

        // Every window of one second (30 frames, by decode order) stays within 110% of the limit.
        var worst = 0
        var window = packets.prefix(30).map(\.bytes).reduce(0, +)
        worst = window
        for index in 30..<packets.count {
            window += packets[index].bytes - packets[index - 30].bytes
            worst = max(worst, window)
        }
        #expect(Double(worst) <= 1.1 * Double(limitBytes), "worst 1 s window \(worst) bytes, limit \(limitBytes)")
        print(
            "bitrate \(target): average \(Int(average)) b/s (\(String(format: "%+.1f", (average / Double(target) - 1) * 100))%), worst 1 s window \(worst * 8) b (limit \(limitBytes * 8))"
        )
    }
}
#endif
