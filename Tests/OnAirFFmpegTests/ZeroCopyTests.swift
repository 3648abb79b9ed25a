#if os(Linux)
import Foundation
import OnAirBitstream
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirFFmpeg

/// Pictures, samples and packets move between libav* and OnAir's types without copies.
@Suite struct ZeroCopyTests {
    static let settings = VideoEncoderSettings(
        width: 160, height: 120, expectedFrameRate: 30, averageBitRate: 300_000,
        maxKeyFrameInterval: 30, maxKeyFrameIntervalDuration: 0,
        realTime: false, encoder: "libx264", preset: "ultrafast")

    @Test func decodedMediaStaysInTheDecodersBuffers() async throws {
        let dir = try Tools.temporaryDirectory("zerocopy")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("in.mkv").path
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-f", "lavfi",
            "-i", "sine=frequency=440:sample_rate=48000", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p",
            "-c:a", "pcm_s16le", path,
        ])
        try await onDedicatedThread {
            for output in [nil, MediaFileDecoder.VideoOutput(width: 80, height: 60)] {
                let decoder = try MediaFileDecoder(path: path, videoOutput: output)
                var frames = 0, buffers = 0
                while let item = try decoder.next() {
                    switch item {
                    case .video(let frame):
                        frames += 1
                        #expect(frame.layoutProblem() == nil)
                        #expect(frame.width == (output?.width ?? 160))
                        // In native or pooled memory, not copied into arrays.
                        #expect(frame.planes.allSatisfy { $0.buffer.baseAddress != nil })
                    case .audio(let buffer):
                        buffers += 1
                        #expect(buffer.layoutProblem() == nil)
                        #expect(buffer.planeBuffers.allSatisfy { $0.baseAddress != nil })
                    }
                }
                #expect(frames == 30)
                #expect(buffers > 0)
            }
        }
    }

    @Test func encoderTakesPooledFramesWithoutKeepingThem() async throws {
        try await onDedicatedThread {
            let pool = VideoFramePool(width: 160, height: 120, pixelFormat: .yuv420p)
            let encoder = try H264Encoder(settings: Self.settings)
            var packets: [EncodedPacket] = []
            for index in 0..<60 {
                let pattern = testPattern(width: 160, height: 120, index: index)
                let frame = pool.makeFrame(pts: pattern.pts)
                for (plane, source) in zip(frame.planes, pattern.planes) {
                    plane.withUnsafeMutableBytes { target in source.withUnsafeBytes { target.copyMemory(from: $0) } }
                }
                packets += try encoder.encode(frame, forceKeyFrame: false)
            }
            packets += try encoder.flush()
            // The encoder let go of every frame as soon as it had taken the picture in.
            #expect(pool.pool.counts.live == 0)
            #expect(pool.pool.counts.allocated == 1)
            #expect(packets.count == 60)
            // Packets carry the encoder's own payload buffer, padded as libavcodec pads it.
            #expect(packets.allSatisfy { $0.payload.baseAddress != nil && $0.payload.padding >= 64 })
            #expect(packets.allSatisfy { $0.form == .annexB(parameterSetsInBand: true) })
            #expect(packets.map { Int(($0.pts.seconds * 30).rounded()) } == Array(0..<60))
        }
    }

    @Test func aConversionIsMadeOnceAndShared() async throws {
        let clip = try await encodeClip(Self.settings, frames: 2)
        let key = try #require(clip.packets.first { $0.isKeyframe })
        let copy = key  // a second sink's copy of the same packet
        let first = try key.converted(to: .avcc)
        let second = try copy.converted(to: .avcc)
        #expect(first === second)
        #expect(key.conversions.count == 1)
        #expect(try key.converted(to: key.form) === key.payload)
        // The AVCC sample holds the same slices, without parameter sets (those go to the avcC record).
        let units = try AVCC.units(in: first.bytes, lengthSize: 4)
        #expect(!units.contains { $0.type == .sps || $0.type == .pps })
        let slices = AnnexB.split(key.data).filter { $0.type != .sps && $0.type != .pps && $0.type != .accessUnitDelimiter }
        #expect(units == slices)
        // And back: Annex-B without parameter sets.
        let annexB = try key.converted(to: .annexB(parameterSetsInBand: false))
        #expect(AnnexB.split(annexB.bytes) == slices)
    }
}
#endif
