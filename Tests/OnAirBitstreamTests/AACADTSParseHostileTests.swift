import OnAirBitstream
import OnAirTestSupport
import Testing

/// ADTS.parse on damaged and hostile input: it must never trap or loop.
@Suite("ADTS.parse hostile input")
struct AACADTSParseHostileTests {
    /// Three well-formed mono frames with distinct payload sizes.
    static func frames() throws -> [[UInt8]] {
        let config = try AudioSpecificConfig(sampleRate: 44100, channels: 1)
        return try [20, 35, 50].map { size throws(BitstreamError) in
            try ADTS.wrap((0..<size).map { UInt8(truncatingIfNeeded: $0 * 7 + size) }, config: config)
        }
    }

    @Test func cleanStreamParsesCompletely() throws {
        let frames = try Self.frames()
        let stream = ADTS.parse(frames.flatMap { $0 })
        #expect(stream.frames.count == 3)
        #expect(stream.skippedBytes == 0 && stream.damagedFrames == 0)
        #expect(stream.frames.map { $0.offset } == [0, frames[0].count, frames[0].count + frames[1].count])
        #expect(stream.frames.map { $0.serialized() } == frames)
    }

    @Test func emptyAndAllFFInputs() {
        let empty = ADTS.parse([])
        #expect(empty.frames.isEmpty && empty.skippedBytes == 0 && empty.damagedFrames == 0)
        for count in [1, 2, 7, 9, 100, 10_000] {
            let stream = ADTS.parse([UInt8](repeating: 0xFF, count: count))
            #expect(stream.frames.isEmpty)
            #expect(stream.skippedBytes == count)
        }
        let zeros = ADTS.parse([UInt8](repeating: 0, count: 1000))
        #expect(zeros.frames.isEmpty && zeros.skippedBytes == 1000)
    }

    @Test func resyncsAfterGarbageBetweenFrames() throws {
        let frames = try Self.frames()
        var generator = TestRandom(seed: 42)
        for trial in 0..<200 {
            let garbage = (0..<(1 + trial % 37)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let bytes = frames[0] + garbage + frames[1] + frames[2]
            let stream = ADTS.parse(bytes)
            // A false candidate inside the garbage cannot be confirmed by a following sync word
            // unless it happens to end exactly at one; in this test the real frames must survive.
            let payloads = stream.frames.map { $0.payload }
            #expect(payloads.contains(Array(frames[1].dropFirst(7))))
            #expect(payloads.contains(Array(frames[2].dropFirst(7))))
            #expect(stream.frames.allSatisfy { $0.offset + $0.header.frameLength <= bytes.count })
            let accounted = stream.frames.reduce(0) { $0 + $1.header.frameLength } + stream.skippedBytes
            #expect(accounted == bytes.count)
        }
    }

    @Test func randomGarbageNeverTraps() {
        var generator = TestRandom(seed: 7)
        for length in stride(from: 0, to: 3000, by: 13) {
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Sprinkle sync words to give the scanner work.
            for position in stride(from: 0, to: max(0, length - 1), by: 17) {
                bytes[position] = 0xFF
                bytes[position + 1] = 0xF1
            }
            let stream = ADTS.parse(bytes)
            let accounted = stream.frames.reduce(0) { $0 + $1.header.frameLength } + stream.skippedBytes
            #expect(accounted == bytes.count)
        }
    }

    @Test func truncatedFinalFrameIsCountedDamaged() throws {
        let frames = try Self.frames()
        let whole = frames.flatMap { $0 }
        for cut in 1..<frames[2].count {
            let stream = ADTS.parse(Array(whole.dropLast(cut)))
            #expect(stream.frames.count == 2)
            #expect(stream.damagedFrames == 1)
            #expect(stream.skippedBytes == frames[2].count - cut)
        }
    }

    @Test func damagedFrameLengthIsSkippedAndLaterFramesRecovered() throws {
        var frames = try Self.frames()
        frames[0][4] ^= 0x04  // frame_length off by 32 bytes
        let stream = ADTS.parse(frames.flatMap { $0 })
        #expect(stream.damagedFrames == 1)
        #expect(stream.frames.count == 2)
        #expect(stream.skippedBytes == frames[0].count)
    }

    @Test func badSyncLayerAndIndexFramesAreSkipped() throws {
        let frames = try Self.frames()
        for damage in [(1, UInt8(0xF7)), (1, UInt8(0xE1)), (2, UInt8(0x74)), (2, UInt8(0x78)), (2, UInt8(0x7C)), (0, UInt8(0x00))] {
            var first = frames[0]
            first[damage.0] = damage.1
            let stream = ADTS.parse(first + frames[1] + frames[2])
            #expect(stream.frames.count == 2)
            #expect(stream.skippedBytes == first.count)
        }
    }

    @Test func headerWithFrameLengthBelowHeaderSizeIsSkipped() throws {
        let frames = try Self.frames()
        var first = frames[0]
        first[3] &= 0xFC
        first[4] = 0
        first[5] &= 0x1F  // frame_length 0
        let stream = ADTS.parse(first + frames[1])
        #expect(stream.frames.count == 1)
        #expect(stream.skippedBytes == first.count)
    }
}
