#if os(Linux)
import Foundation
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirFFmpeg

/// `ContainerWriter` reports a write failure at the very call that meets it: the header in `init`,
/// packet n in the n-th `write`, the trailer and the close in `finish` — each naming the output
/// and FFmpeg's message for the `errno` the `WriteFaults` seam injected.
@Suite struct ContainerWriterFaultTests {
    /// Where a failure must surface.
    enum Call: Equatable { case open, write(Int), finish }

    static let moments: [(WriteMoment, Call, String)] = [
        (.open, .open, "open"), (.header, .open, "header"), (.packet(0), .write(0), "packet"),
        (.packet(7), .write(7), "packet"), (.trailer, .finish, "finish"), (.close, .finish, "close"),
    ]

    @Test(arguments: 0..<moments.count, [false, true])
    func aFailureSurfacesAtTheCallThatMeetsIt(index: Int, faststart: Bool) async throws {
        let (moment, call, operation) = Self.moments[index]
        let clip = try await encodeClip(
            VideoEncoderSettings(
                width: 64, height: 64, expectedFrameRate: 25, averageBitRate: 200_000,
                realTime: false, encoder: "libx264", preset: "ultrafast"),
            frames: 12)
        let dir = try Tools.temporaryDirectory("writer-faults")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.mp4").path
        let injection = WriteFaults.inject(at: moment, under: dir.path)
        defer { injection.remove() }
        let description = try #require(clip.packets.first?.formatDescription)
        // Not interleaved and flushed per packet: every packet reaches the file in its own `write`.
        var options = ["flush_packets": "1"]
        if faststart { options["movflags"] = "+faststart" }
        var failedAt: Call?
        var failure: (any Error)?
        do {
            let writer = try ContainerWriter(
                destination: path, format: "mp4", tracks: [ContainerSink.track(for: description, avcc: true)],
                options: options, interleaved: false)
            for (number, packet) in clip.packets.enumerated() where failure == nil {
                do {
                    try writer.write(
                        track: 0, payload: try ContainerSink.payloadBuffer(of: packet, avcc: true), pts: packet.pts,
                        dts: packet.dts, duration: packet.duration, isKeyframe: packet.isKeyframe)
                } catch {
                    (failedAt, failure) = (.write(number), error)
                }
            }
            if failure == nil {
                do { try writer.finish() } catch { (failedAt, failure) = (.finish, error) }
            } else {
                writer.abandon()
            }
        } catch {
            (failedAt, failure) = (.open, error)
        }
        #expect(failedAt == call, "failed at \(String(describing: failedAt)): \(String(describing: failure))")
        let message = failure.map { "\($0)" } ?? ""
        #expect(message.contains(path) && message.contains("No space left on device") && message.contains(operation), "\(message)")
        #expect(injection.failureCount > 0)
    }
}
#endif
