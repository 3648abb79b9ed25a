import OnAirBitstream
import OnAirTestSupport
import Testing

/// NAL unit headers, emulation prevention, Annex-B scanning and AVCC framing on hand-made bytes.
@Suite("H264 basics")
struct H264BasicsTests {
    @Test func nalUnitHeader() throws {
        let unit = try H264NALUnit([0x65, 0x88, 0x80])
        #expect(unit.type == .idr && unit.nalRefIdc == 3 && unit.type.isVCL)
        #expect(unit.type.description == "IDR")
        #expect(H264NALUnitType.slice.description == "non-IDR slice" && H264NALUnitType.sps.description == "SPS")
        #expect(!H264NALUnitType.sei.isVCL && H264NALUnitType.sliceDataC.isVCL && !H264NALUnitType.auxiliarySlice.isVCL)
        #expect(H264NALUnitType(rawValue: 0xE7) == .sps)
        #expect(throws: BitstreamError.truncated("NAL unit header")) { try H264NALUnit([]) }
        #expect(throws: BitstreamError.self) { try H264NALUnit([0x80 | 0x67]) }
        #expect(try H264NALUnit([0x06, 0x00, 0x00, 0x03, 0x01]).rbsp == [0x00, 0x00, 0x01])
    }

    @Test func emulationPrevention() {
        #expect(EmulationPrevention.remove([0, 0, 3, 1]) == [0, 0, 1])
        #expect(EmulationPrevention.remove([0, 0, 3, 0, 0, 3]) == [0, 0, 0, 0])
        #expect(EmulationPrevention.remove([0, 3, 0, 0, 3]) == [0, 3, 0, 0])
        #expect(EmulationPrevention.insert([0, 0, 0]) == [0, 0, 3, 0])
        #expect(EmulationPrevention.insert([0, 0, 1, 0, 0, 4]) == [0, 0, 3, 1, 0, 0, 4])
        #expect(EmulationPrevention.insert([5, 0, 0]) == [5, 0, 0, 3])
        #expect(EmulationPrevention.insert([0, 0, 0, 0]) == [0, 0, 3, 0, 0, 3])
        var random = TestRandom(seed: 7)
        for _ in 0..<500 {
            let rbsp = (0..<random.next(upTo: 64)).map { _ in UInt8(random.next(upTo: 4)) }
            let escaped = EmulationPrevention.insert(rbsp)
            #expect(EmulationPrevention.remove(escaped) == rbsp)
            for index in escaped.indices.dropLast(2) where escaped[index] == 0 && escaped[index + 1] == 0 {
                #expect(escaped[index + 2] == 3)
            }
        }
        // Any bytes (escaped or not), whole or as a slice, against the rule applied byte by byte.
        func byteByByte(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var output: [UInt8] = [], zeros = 0
            for byte in bytes {
                if zeros >= 2 && byte == 3 { zeros = 0; continue }
                output.append(byte)
                zeros = byte == 0 ? zeros + 1 : 0
            }
            return output
        }
        for _ in 0..<2000 {
            let bytes = (0..<random.next(upTo: 80)).map { _ in UInt8(random.next(upTo: random.next(upTo: 2) == 0 ? 5 : 256)) }
            let start = bytes.isEmpty ? 0 : random.next(upTo: bytes.count)
            #expect(EmulationPrevention.remove(bytes) == byteByByte(bytes[...]), "\(bytes)")
            #expect(EmulationPrevention.remove(bytes[start...]) == byteByByte(bytes[start...]), "\(bytes) from \(start)")
        }
    }

    @Test func annexBRanges() {
        let data: [UInt8] = [0, 0, 0, 1, 0x67, 1, 2, 0, 0, 1, 0x68, 3, 0, 0, 0, 0, 0, 1, 0x65, 4, 0, 0]
        #expect(AnnexB.nalUnitRanges(in: data) == [4..<7, 10..<12, 18..<20])
        #expect(AnnexB.nalUnitRanges(in: [9, 9, 0, 0, 1, 0x09, 0xF0]) == [5..<7])
        #expect(AnnexB.nalUnitRanges(in: [0x67, 1, 2, 3]).isEmpty)
        #expect(AnnexB.nalUnitRanges(in: [0, 0, 1, 0, 0, 1, 0x09, 0x10]) == [6..<8])
        // A unit ends at 00 00 00; what follows up to the next start code is not part of any unit.
        #expect(AnnexB.nalUnitRanges(in: [0, 0, 1, 0x41, 5, 0, 0, 0, 7, 7, 0, 0, 1, 0x41, 6]) == [3..<5, 13..<15])
        #expect(AnnexB.nalUnitRanges(in: [0, 0, 1]).isEmpty)
        #expect(AnnexB.nalUnitRanges(in: [0, 0, 1, 0x09]) == [3..<4])
        #expect(AnnexB.split([0, 0, 1, 0x80, 1, 0, 0, 1, 0x09, 0xF0]).map(\.bytes) == [[0x09, 0xF0]])
        for count in 0..<40 {
            #expect(AnnexB.nalUnitRanges(in: [UInt8](repeating: 0, count: count)).isEmpty)
            #expect(AnnexB.split(Array([[UInt8]](repeating: [0, 0, 1], count: count).joined())).isEmpty)
        }
    }

    @Test func annexBStartCodesFollowX264() throws {
        let aud = try H264NALUnit([0x09, 0xF0])
        let sps = H264SyntheticStream.sps(.init())
        let pps = H264SyntheticStream.pps(.init())
        let sei = try H264NALUnit([0x06, 0x05, 0x01, 0x00, 0x80])
        let slice = try H264NALUnit([0x25, 0x88, 0x80])
        let joined = AnnexB.join(accessUnit: [aud, sps, pps, sei, slice, slice])
        #expect(startCodeLengths(joined) == [4, 4, 4, 3, 3, 3])
        #expect(startCodeLengths(AnnexB.join(accessUnit: [sei, slice, sps])) == [4, 3, 4])
        #expect(AnnexB.split(joined) == [aud, sps, pps, sei, slice, slice])
        #expect(AnnexB.join([]).isEmpty)
    }

    @Test func avccFraming() throws {
        let units = [
            try H264NALUnit([0x67, 1, 2]), try H264NALUnit([0x68, 3]), try H264NALUnit([0x65] + [UInt8](repeating: 7, count: 300)),
        ]
        for lengthSize in [2, 4] {
            let sample = try AVCC.sample(from: units, lengthSize: lengthSize)
            #expect(sample.count == units.reduce(0) { $0 + $1.bytes.count + lengthSize })
            #expect(try AVCC.units(in: sample, lengthSize: lengthSize) == units)
            let annexB = try AVCC.toAnnexB(sample, lengthSize: lengthSize)
            #expect(try AVCC.fromAnnexB(annexB, lengthSize: lengthSize) == sample)
        }
        #expect(try AVCC.sample(from: Array(units.prefix(2)), lengthSize: 1) == [3, 0x67, 1, 2, 2, 0x68, 3])
        #expect(throws: BitstreamError.self) { try AVCC.sample(from: units, lengthSize: 1) }
        #expect(try AVCC.units(in: [], lengthSize: 4).isEmpty)
        for lengthSize in [0, 3, 5, -1, 8] {
            #expect(throws: BitstreamError.self) { try AVCC.units(in: [0, 0, 1, 0x09], lengthSize: lengthSize) }
            #expect(throws: BitstreamError.self) { try AVCC.sample(from: units, lengthSize: lengthSize) }
        }
        #expect(throws: BitstreamError.self) { try AVCC.units(in: [0, 0, 0, 0], lengthSize: 4) }
        #expect(throws: BitstreamError.self) { try AVCC.units(in: [0, 0, 0, 5, 0x09, 0x10], lengthSize: 4) }
        #expect(throws: BitstreamError.self) { try AVCC.units(in: [0xFF, 0xFF, 0xFF, 0xFF, 0x09], lengthSize: 4) }
        #expect(throws: BitstreamError.self) { try AVCC.units(in: [0, 2, 0x09, 0x10, 0], lengthSize: 2) }
        #expect(throws: BitstreamError.self) { try AVCC.units(in: [1, 0x89], lengthSize: 1) }
    }

    @Test func profileNamesFollowFFmpeg() throws {
        let cases: [(UInt8, UInt8, String)] = [
            (66, 0x00, "Baseline"), (66, 0x40, "Constrained Baseline"), (66, 0xC0, "Constrained Baseline"),
            (77, 0x40, "Main"), (88, 0x00, "Extended"), (100, 0x00, "High"), (100, 0x10, "High"),
            (110, 0x00, "High 10"), (110, 0x10, "High 10 Intra"), (122, 0x00, "High 4:2:2"), (122, 0x10, "High 4:2:2 Intra"),
            (244, 0x00, "High 4:4:4 Predictive"), (244, 0x10, "High 4:4:4 Intra"), (44, 0x00, "CAVLC 4:4:4"),
            (144, 0x00, "High 4:4:4"), (118, 0x00, "Multiview High"), (128, 0x00, "Stereo High"), (83, 0x00, "83"),
        ]
        for (profile, flags, name) in cases {
            let unit = H264SyntheticStream.sps(.init(profileIdc: profile, constraintFlags: flags))
            let sps = try H264SPS(unit)
            #expect(sps.profileName == name)
            #expect(sps.constraintFlags == flags && sps.profileIdc == profile)
        }
        let level1b = try H264SPS(H264SyntheticStream.sps(.init(profileIdc: 77, constraintFlags: 0x10, levelIdc: 11)))
        #expect(level1b.isLevel1b && level1b.level == 1.1 && level1b.levelName == "1b")
        let level11 = try H264SPS(H264SyntheticStream.sps(.init(profileIdc: 100, constraintFlags: 0x10, levelIdc: 11)))
        #expect(!level11.isLevel1b && level11.levelName == "1.1")
    }

    @Test func avcCRecordBuiltFromUnits() throws {
        let sps = H264SyntheticStream.sps(.init(profileIdc: 66, constraintFlags: 0xC0, levelIdc: 30))
        let pps = H264SyntheticStream.pps(.init())
        let record = try AVCDecoderConfigurationRecord(sps: [sps], pps: [pps], lengthSize: 2)
        let bytes = record.serialized()
        #expect(Array(bytes.prefix(6)) == [1, 66, 0xC0, 30, 0xFD, 0xE1])
        #expect(!record.hasExtension)
        #expect(try AVCDecoderConfigurationRecord(parsing: bytes) == record)
        let high = try AVCDecoderConfigurationRecord(sps: [H264SyntheticStream.sps(.init(chromaFormatIdc: 2))], pps: [pps])
        #expect(high.chromaFormat == 2 && high.bitDepthLuma == 8 && high.serialized().suffix(4) == [0xFE, 0xF8, 0xF8, 0x00])
        #expect(throws: BitstreamError.self) { try AVCDecoderConfigurationRecord(sps: [], pps: [pps]) }
        #expect(throws: BitstreamError.self) { try AVCDecoderConfigurationRecord(sps: [sps], pps: [pps], lengthSize: 3) }
        var withTail = bytes
        withTail += [1, 2]
        let tail = try AVCDecoderConfigurationRecord(parsing: withTail)
        #expect(tail.trailingBytes == [1, 2] && tail.serialized() == withTail)
    }

    /// The start-code lengths in an Annex-B stream, in order.
    private func startCodeLengths(_ data: [UInt8]) -> [Int] {
        AnnexB.nalUnitRanges(in: data).map { range in
            range.lowerBound >= 4 && data[range.lowerBound - 4] == 0 ? 4 : 3
        }
    }
}
