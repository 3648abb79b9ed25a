#if os(Linux)
import Foundation
import OnAir
import Testing

@Suite struct SyncFrameCodeTests {
    @Test func neverTrapsAndReturnsNilOnNoiseAndOddSizes() {
        var random = SystemRandomNumberGenerator()
        var sizes = [(1, 1), (2, 1), (1, 2), (3, 3), (17, 9), (51, 33), (64, 48), (65, 49), (159, 119), (160, 120), (161, 121)]
        for _ in 0..<12 { sizes.append((Int.random(in: 1...400, using: &random), Int.random(in: 1...300, using: &random))) }
        for (width, height) in sizes {
            for format in [VideoPixelFormat.yuv420p, .nv12, .yuv444p, .rgba] {
                var frame = VideoFrame(width: width, height: height, pixelFormat: format, pts: .zero)
                for plane in frame.planes.indices {
                    frame.planes[plane].bytes = noise(count: frame.planes[plane].bytes.count, using: &random)
                }
                #expect(FrameCode.read(from: frame) == nil, "\(width)x\(height) \(format)")
                #expect((FlashDetector.whiteness(of: frame) ?? 0) <= 1)
            }
        }
    }

    private func noise(count: Int, using random: inout SystemRandomNumberGenerator) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count + 8)
        bytes.withUnsafeMutableBytes { raw in
            for offset in stride(from: 0, to: count, by: 8) { raw.storeBytes(of: random.next(), toByteOffset: offset, as: UInt64.self) }
        }
        return Array(bytes.prefix(count))
    }

    @Test func returnsNilOnFlatAndMalformedFrames() throws {
        for value: UInt8 in [0, 16, 128, 235, 255] {
            var frame = VideoFrame(width: 640, height: 360, pixelFormat: .yuv420p, pts: .zero)
            frame.planes[0].bytes = [UInt8](repeating: value, count: frame.planes[0].bytes.count)
            #expect(FrameCode.read(from: frame) == nil)
        }
        let good = try SyntheticVideo(width: 320, height: 240, frameRate: 30).frame(index: 3, captureTime: .zero)
        var short = good
        short.planes[0].bytes.removeLast(500)
        #expect(FrameCode.read(from: short) == nil)
        var narrow = good
        narrow.planes[0].bytesPerRow = 100
        #expect(FrameCode.read(from: narrow) == nil)
        var missing = good
        missing.planes.removeLast()
        #expect(FrameCode.read(from: missing) == nil)
        var negative = good
        negative.width = -5
        #expect(FrameCode.read(from: negative) == nil)
        // Sizes whose byte counts would overflow Int must be rejected, not trap.
        var huge = good
        huge.width = Int.max / 2
        huge.planes[0].bytesPerRow = Int.max / 2
        #expect(FrameCode.read(from: huge) == nil)
        #expect(FlashDetector.whiteness(of: huge) == nil)
        huge.height = Int.max
        #expect(FrameCode.read(from: huge) == nil)
    }

    @Test func checksumRejectsAFlippedCell() throws {
        let frame = try SyntheticVideo(width: 640, height: 360, frameRate: 30).frame(index: 77, captureTime: MediaTime(seconds: 2.5))
        #expect(FrameCode.read(from: frame)?.index == 77)
        // 640x360: 10-pixel cells, grid origin (10, 10); the data cell at grid column 5, row 4.
        var damaged = frame
        for y in 50..<60 {
            for x in 60..<70 { damaged.planes[0].bytes[y * 640 + x] = 255 - damaged.planes[0].bytes[y * 640 + x] }
        }
        #expect(FrameCode.read(from: damaged) == nil)
    }

    @Test func readsNV12WithPaddedStrideAndShiftedCode() throws {
        let frame = try SyntheticVideo(width: 320, height: 180, frameRate: 30).frame(index: 9, captureTime: MediaTime(seconds: 0.3))
        // Repack as nv12 with 64 bytes of row padding, shifting the picture right/down by 3 pixels.
        let stride = 320 + 64
        var luma = [UInt8](repeating: 90, count: stride * 180)
        for y in 0..<(180 - 3) {
            for x in 0..<(320 - 3) { luma[(y + 3) * stride + x + 3] = frame.planes[0].bytes[y * 320 + x] }
        }
        let chroma = [UInt8](repeating: 128, count: stride * 90)
        let nv12 = VideoFrame(
            width: 320, height: 180, pixelFormat: .nv12,
            planes: [.init(bytes: luma, bytesPerRow: stride), .init(bytes: chroma, bytesPerRow: stride)],
            pts: .zero)
        let code = try #require(FrameCode.read(from: nv12))
        #expect(code.index == 9 && code.captureMicroseconds == 300_000)
    }
}
#endif
