import Foundation
import OnAirBitstream
import OnAirTestSupport
import Testing

/// Truncated, corrupted and nonsense input: every parser must throw or report damage, never trap
/// and never loop forever.
@Suite("H264 hostile input")
struct H264HostileInputTests {
    /// Runs every parser over one Annex-B buffer and checks that the results stay consistent.
    static func exerciseEverything(_ data: [UInt8]) {
        let units = AnnexB.split(data)
        var splitter = H264AccessUnitSplitter()
        var accessUnits: [H264AccessUnit] = []
        for unit in units {
            accessUnits += splitter.push(unit)
            _ = try? H264SPS(unit)
            _ = try? H264PPS(unit, spsLookup: { splitter.parameterSets.sps[$0] })
            _ = try? H264SliceHeader(unit, parameterSets: splitter.parameterSets)
            _ = try? H264SEIMessage.messages(in: unit)
        }
        accessUnits += splitter.finish()
        #expect(accessUnits.flatMap(\.units) == units)
        #expect(AnnexB.split(AnnexB.join(units)) == units)
        for lengthSize in [1, 2, 4] {
            if let sample = try? AVCC.sample(from: units, lengthSize: lengthSize) {
                #expect((try? AVCC.units(in: sample, lengthSize: lengthSize)) == units)
            }
            _ = try? AVCC.units(in: data, lengthSize: lengthSize)
        }
        if let record = try? AVCDecoderConfigurationRecord(parsing: data) {
            #expect((try? AVCDecoderConfigurationRecord(parsing: record.serialized())) == record)
        }
    }

    @Test func truncatedRealUnitsThrow() throws {
        let (bytes, _) = try H264TestMedia.encode(
            frames: 3,
            [
                "-x264-params", "nal-hrd=vbr:slices=2", "-b:v", "200k",
                "-maxrate", "200k", "-bufsize", "400k", "-pix_fmt", "yuv422p",
            ])
        let units = AnnexB.split(bytes)
        let sets = try H264ParameterSets(units: units)
        let sps = try #require(units.first { $0.type == .sps })
        let pps = try #require(units.first { $0.type == .pps })
        let slice = try #require(units.first { $0.type == .idr })
        let header = try H264SliceHeader(slice, parameterSets: sets)
        for length in 0..<sps.bytes.count {
            let prefix = Array(sps.bytes.prefix(length))
            if length < sps.bytes.count - 1 {
                #expect(throws: BitstreamError.self) { try H264SPS(H264NALUnit(prefix)) }
            }
        }
        for length in 0..<(pps.bytes.count - 1) {
            #expect(throws: BitstreamError.self) {
                try H264PPS(H264NALUnit(Array(pps.bytes.prefix(length))), spsLookup: { sets.sps[$0] })
            }
        }
        // The header needs 1 + ceil(bitLength / 8) bytes; anything shorter must throw.
        for length in 0..<(1 + (header.bitLength + 7) / 8) {
            #expect(throws: BitstreamError.self) {
                try H264SliceHeader(H264NALUnit(Array(slice.bytes.prefix(length))), parameterSets: sets)
            }
        }
        for length in 0..<min(slice.bytes.count, 64) {
            _ = try? H264SliceHeader(H264NALUnit(Array(slice.bytes.prefix(length))), parameterSets: sets)
        }
        let record = try AVCDecoderConfigurationRecord(sps: [sps], pps: [pps]).serialized()
        for length in 0..<(record.count - 4) {
            #expect(throws: BitstreamError.self) { try AVCDecoderConfigurationRecord(parsing: Array(record.prefix(length))) }
        }
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 300)) {
            Self.exerciseEverything(Array(bytes.prefix(length)))
        }
    }

    @Test func bitFlipsInParameterSetsNeverTrap() throws {
        let (bytes, _) = try H264TestMedia.encode(frames: 2, ["-x264-params", "cqm=jvt", "-bf", "2"])
        let units = AnnexB.split(bytes)
        for unit in units.prefix(5) {
            for index in unit.bytes.indices.dropFirst().prefix(40) {
                for bit in 0..<8 {
                    var corrupted = unit.bytes
                    corrupted[index] ^= 1 << bit
                    var copy = units
                    copy[units.firstIndex(of: unit) ?? 0] = try H264NALUnit(corrupted)
                    var splitter = H264AccessUnitSplitter()
                    let accessUnits = copy.flatMap { splitter.push($0) } + splitter.finish()
                    #expect(accessUnits.flatMap(\.units) == copy)
                }
            }
        }
    }

    @Test func nonsenseValuesAreRejected() throws {
        // seq_parameter_set_id coded with 40 leading zero bits.
        let hugeCode: [UInt8] = [0x64, 0x00, 0x28, 0, 0, 0, 0, 0, 0xFF]
        #expect(throws: BitstreamError.self) { try H264SPS(rbsp: hugeCode) }
        var writer = BitWriter()
        writer.write(66, bits: 8)
        writer.write(0, bits: 8)
        writer.write(30, bits: 8)
        writer.writeUE(0)  // id
        writer.writeUE(0)  // log2_max_frame_num_minus4
        writer.writeUE(2)  // poc type
        writer.writeUE(1)  // refs
        writer.write(false)
        writer.writeUE(100_000)  // absurd width
        writer.writeUE(10)
        writer.write(true)
        writer.write(true)
        writer.write(false)
        writer.write(false)
        writer.writeTrailingBits()
        #expect(throws: BitstreamError.self) { try H264SPS(rbsp: writer.bytes) }
        // Cropping that removes the whole picture.
        let tooMuchCrop = H264SyntheticStream.sps(.init(crop: (20, 20, 0, 0)))
        #expect(throws: BitstreamError.self) { try H264SPS(tooMuchCrop) }
        let hugeCrop = H264SyntheticStream.sps(.init(crop: (0, 0, 0, Int(UInt32.max - 1))))
        #expect(throws: BitstreamError.self) { try H264SPS(hugeCrop) }
        // Wrong unit types.
        let pps = H264SyntheticStream.pps(.init())
        #expect(throws: BitstreamError.self) { try H264SPS(pps) }
        #expect(throws: BitstreamError.self) { try H264PPS(H264SyntheticStream.sps(.init())) }
        #expect(throws: BitstreamError.self) { try H264SliceHeader(pps, parameterSets: H264ParameterSets()) }
        #expect(throws: BitstreamError.self) { try H264SEIMessage.messages(in: pps) }
        // An SEI whose payload size runs past the end, and one made of 0xFF type bytes.
        #expect(throws: BitstreamError.self) { try H264SEIMessage.messages(in: H264NALUnit([0x06, 0x05, 0x40, 0x00])) }
        #expect(throws: BitstreamError.self) { try H264SEIMessage.messages(in: H264NALUnit([0x06] + [UInt8](repeating: 0xFF, count: 100))) }
        // avcC with a bad version, a length size of 3, and a parameter set running past the end.
        #expect(throws: BitstreamError.self) { try AVCDecoderConfigurationRecord(parsing: [0, 66, 0, 30, 0xFF, 0xE0, 0]) }
        #expect(throws: BitstreamError.self) { try AVCDecoderConfigurationRecord(parsing: [1, 66, 0, 30, 0xFE, 0xE0, 0]) }
        #expect(throws: BitstreamError.self) { try AVCDecoderConfigurationRecord(parsing: [1, 66, 0, 30, 0xFF, 0xE1, 0xFF, 0xFF, 0x67]) }
        #expect(throws: BitstreamError.self) { try AVCDecoderConfigurationRecord(parsing: [1, 66, 0, 30, 0xFF, 0xE1, 0x00, 0x00, 0]) }
    }

    @Test func degenerateBuffersTerminate() {
        for count in 0..<64 {
            Self.exerciseEverything([UInt8](repeating: 0, count: count))
            Self.exerciseEverything(Array([[UInt8]](repeating: [0, 0, 1], count: count).joined()))
            Self.exerciseEverything([UInt8](repeating: 0xFF, count: count))
            Self.exerciseEverything(Array([[UInt8]](repeating: [0, 0, 1, 0x65], count: count).joined()))
        }
        #expect(AnnexB.split([UInt8](repeating: 0, count: 1 << 16)).isEmpty)
    }

    @Test func randomBuffersNeverTrap() {
        var random = TestRandom(seed: 264)
        let headers: [UInt8] = [0x67, 0x68, 0x65, 0x41, 0x01, 0x06, 0x09, 0x0A, 0x21, 0x42, 0x43, 0x44]
        for _ in 0..<1500 {
            var data: [UInt8] = []
            for _ in 0..<random.next(upTo: 6) {
                data += random.next(upTo: 2) == 0 ? [0, 0, 1] : [0, 0, 0, 1]
                data.append(headers[random.next(upTo: headers.count)])
                data += (0..<random.next(upTo: 24)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            }
            Self.exerciseEverything(data)
        }
    }
}
