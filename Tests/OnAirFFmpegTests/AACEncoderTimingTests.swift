#if os(Linux)
import Foundation
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirFFmpeg

/// The AAC encoder's output timeline follows its input's timestamps through holes and drift.
@Suite struct AACEncoderTimingTests {
    let settings = AudioEncoderSettings(sampleRate: 48_000, channels: 1, bitRate: 64_000)

    /// Where the encoded audio ends, in seconds.
    static func end(of packets: [EncodedPacket]) throws -> Double {
        let last = try #require(packets.last)
        return (last.pts + last.duration).seconds
    }

    @Test func aHoleInTheTimestampsBecomesSilence() async throws {
        var buffers = sineBuffers(rate: 48_000, channels: 1, format: .f32, planar: false, seconds: 2, chunk: 480, start: .zero)
        for index in buffers.indices where buffers[index].pts.seconds >= 1 {
            buffers[index].pts = buffers[index].pts + MediaTime(value: 24_000, timescale: 48_000)
        }
        let (packets, _, _) = try await encodeAAC(settings, buffers)
        let end = try Self.end(of: packets)
        #expect(end >= 2.5 && end <= 2.5 + 2048.0 / 48_000, "ends at \(end) s")
        let steps = Set(zip(packets, packets.dropFirst()).map { $1.pts.value - $0.pts.value })
        #expect(steps == [1024], "packet steps \(steps)")
    }

    @Test func overlappingTimestampsAreCut() async throws {
        var buffers = sineBuffers(rate: 48_000, channels: 1, format: .s16, planar: false, seconds: 2, chunk: 480, start: .zero)
        for index in buffers.indices where buffers[index].pts.seconds >= 1 {
            buffers[index].pts = buffers[index].pts - MediaTime(value: 9_600, timescale: 48_000)
        }
        let (packets, _, _) = try await encodeAAC(settings, buffers)
        let end = try Self.end(of: packets)
        #expect(end >= 1.8 && end <= 1.8 + 2048.0 / 48_000, "ends at \(end) s")
    }

    @Test func aFastSampleClockIsFollowed() async throws {
        // 20 s from a device 2000 ppm fast: 20.04 s of samples stamped over 20 s.
        let ppm = 2000.0
        var buffers = sineBuffers(
            rate: 48_000, channels: 1, format: .f32, planar: false, seconds: 20 * (1 + ppm / 1e6),
            chunk: 480, start: .zero)
        for index in buffers.indices {
            buffers[index].pts = MediaTime(value: Int64((Double(index * 480) / (1 + ppm / 1e6)).rounded()), timescale: 48_000)
        }
        let (packets, _, _) = try await encodeAAC(settings, buffers)
        let end = try Self.end(of: packets)
        // Counting samples would end at 20.04 s.
        #expect(abs(end - 20) <= 0.01, "ends at \(end) s")
    }
}
#endif
