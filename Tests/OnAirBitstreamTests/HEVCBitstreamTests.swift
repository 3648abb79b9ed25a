import Foundation
import OnAirBitstream
import OnAirTestSupport
import Testing

/// The H.265 readers and writers against streams libx265 (through ffmpeg) and GStreamer's x265enc
/// make at test time: byte streams split and join back byte for byte, the SPS says what ffprobe
/// says, `hvcC` records parse, build and serialize as FFmpeg's MP4 muxer writes them.
@Suite("HEVC bitstream")
struct HEVCBitstreamTests {
    @Test("NAL unit header: type, layer, temporal id; bad headers refused")
    func header() throws {
        let unit = try HEVCNALUnit([0x40, 0x01, 0x0C])
        #expect(unit.type == .vps && unit.type.isParameterSet && unit.layerID == 0 && unit.temporalID == 0)
        #expect(try HEVCNALUnit([0x26, 0x01]).type == .idrWithDecodableLeadingPictures)
        #expect(HEVCNALUnitType.cra.isIRAP && !HEVCNALUnitType.cra.isIDR && HEVCNALUnitType.idrWithoutLeadingPictures.isIDR)
        #expect(HEVCNALUnitType.blaWithLeadingPictures.isIRAP && !HEVCNALUnitType.trailR.isIRAP && HEVCNALUnitType.trailN.isVCL)
        #expect(!HEVCNALUnitType.prefixSEI.isVCL && HEVCNALUnitType.accessUnitDelimiter.description == "AUD")
        #expect(throws: BitstreamError.self) { try HEVCNALUnit([0x40]) }
        #expect(throws: BitstreamError.self) { try HEVCNALUnit([0xC0, 0x01]) }
        #expect(throws: BitstreamError.self) { try HEVCNALUnit([0x40, 0x00]) }
    }

    @Test(
        "libx265 streams: split and join byte for byte, SPS as ffprobe reads it",
        arguments: [
            ("320x240", "25", "yuv420p", "keyint=6:forced-idr=1:repeat-headers=1:open-gop=0"),
            ("318x178", "30000/1001", "yuv420p", "keyint=5:repeat-headers=1:bframes=3:aud=1"),
            ("256x144", "50", "yuv420p10le", "keyint=4:repeat-headers=1:hrd=1:vbv-bufsize=800:vbv-maxrate=400"),
            ("200x120", "24", "yuv444p", "keyint=3:repeat-headers=1:scaling-list=default"),
        ])
    func libx265Streams(size: String, rate: String, pixelFormat: String, params: String) throws {
        let (bytes, url) = try HEVCTestMedia.libx265(size: size, rate: rate, pixelFormat: pixelFormat, params: params)
        let units = HEVCByteStream.split(bytes)
        #expect(HEVCByteStream.joinAnnexB(units) == bytes, "Annex-B join")
        let sps = try HEVCSPS(try #require(units.first { $0.type == .sps }))
        let probe = try H264TestMedia.probeStream(url)
        #expect(sps.width == probe["width"] as? Int)
        #expect(sps.height == probe["height"] as? Int)
        #expect(sps.profileTierLevel.profileName == probe["profile"] as? String)
        #expect(Int(sps.profileTierLevel.levelIdc) == probe["level"] as? Int)
        let expectedRate = rate == "30000/1001" ? 30000.0 / 1001 : Double(rate)!
        #expect(abs((sps.frameRate ?? 0) - expectedRate) < 0.001)
        if let (chroma, depth) = H264TestMedia.chromaAndDepth(pixelFormat: pixelFormat) {
            #expect(sps.chromaFormatIdc == chroma && sps.bitDepthLuma == depth)
        }
        // Every access unit: with parameter sets out of band and put back from the record, the same bytes.
        let record = try HEVCDecoderConfigurationRecord(units: units.prefix { !$0.type.isVCL }.filter { $0.type.isParameterSet })
        for accessUnit in HEVCByteStream.accessUnits(units) {
            let original = HEVCByteStream.joinAnnexB(accessUnit)
            let sample = try HEVCByteStream.sample(fromAnnexB: original, lengthSize: 4, parameterSetsInBand: false)
            let back = try HEVCByteStream.annexB(fromSample: sample, lengthSize: 4, parameterSets: record.parameterSets)
            let expected = HEVCByteStream.joinAnnexB(accessUnit.filter { $0.type != .accessUnitDelimiter })
            #expect(back == expected, "access unit of \(accessUnit.map(\.type.description))")
        }
        #expect(HEVCByteStream.accessUnits(units).count == 12)
    }

    @Test("hvcC from FFmpeg's MP4 muxer: parses, serializes byte for byte, and is what the parameter sets build")
    func decoderConfigurationRecord() throws {
        for (bytes, url) in [try HEVCTestMedia.libx265(size: "318x178"), try HEVCTestMedia.x265enc(width: 320, height: 180)] {
            let payload = try HEVCTestMedia.hvcC(remuxing: url)
            let parsed = try HEVCDecoderConfigurationRecord(parsing: payload)
            #expect(parsed.serialized() == payload)
            let units = HEVCByteStream.split(bytes)
            let parameterSets = Array(units.prefix { !$0.type.isVCL }.filter { $0.type.isParameterSet })
            // h265parse keeps a PPS's trailing zero byte in the record; the byte stream cannot tell it from a start code's.
            #expect(parsed.parameterSets.map { Array($0.bytes.reversed().drop { $0 == 0 }.reversed()) } == parameterSets.map(\.bytes))
            var built = try HEVCDecoderConfigurationRecord(units: parameterSets, complete: parsed.arrays.first?.complete ?? true)
            built.arrays = parsed.arrays
            #expect(built == parsed)
            #expect(try HEVCDecoderConfigurationRecord(parsing: built.serialized()) == built)
        }
    }

    @Test("GStreamer x265enc: byte stream, SPS and a conformance window")
    func x265enc() throws {
        let (bytes, url) = try HEVCTestMedia.x265enc(width: 322, height: 182)
        let units = HEVCByteStream.split(bytes)
        let sps = try HEVCSPS(try #require(units.first { $0.type == .sps }))
        let probe = try H264TestMedia.probeStream(url)
        #expect(sps.width == 322 && sps.height == 182 && sps.codedWidth > 322)
        #expect(sps.width == probe["width"] as? Int && sps.height == probe["height"] as? Int)
        #expect(sps.profileTierLevel.profileName == "Main" && sps.profileTierLevel.tierName == "Main")
        #expect(units.contains { $0.type.isIRAP } && units.contains { $0.type == .vps })
        #expect(HEVCByteStream.split(HEVCByteStream.joinAnnexB(units)) == units)
    }

    @Test("hostile input: every truncation of an SPS and an hvcC throws, never traps")
    func truncations() throws {
        let (bytes, url) = try HEVCTestMedia.libx265(size: "160x96", frames: 2)
        let sps = try #require(HEVCByteStream.split(bytes).first { $0.type == .sps })
        let rbsp = sps.rbsp
        // The SPS reader stops after the VUI, so only the shorter half is sure to be missing a field.
        for length in 0..<rbsp.count {
            let prefix = Array(rbsp.prefix(length))
            if length < rbsp.count / 2 {
                #expect(throws: BitstreamError.self) { try HEVCSPS(rbsp: prefix) }
            } else {
                _ = try? HEVCSPS(rbsp: prefix)
            }
        }
        let payload = try HEVCTestMedia.hvcC(remuxing: url)
        for length in 0..<payload.count {
            #expect(throws: BitstreamError.self) { try HEVCDecoderConfigurationRecord(parsing: Array(payload.prefix(length))) }
        }
        var random = TestRandom(seed: 47)
        for _ in 0..<2000 {
            let noise = (0..<random.next(upTo: 81)).map { _ in UInt8(random.next(upTo: 256)) }
            _ = try? HEVCSPS(rbsp: noise)
            _ = try? HEVCDecoderConfigurationRecord(parsing: noise)
            _ = try? HEVCByteStream.units(inSample: noise, lengthSize: 2)
        }
        #expect(throws: BitstreamError.self) { try HEVCByteStream.units(inSample: [0, 0, 0, 9, 0x40, 0x01], lengthSize: 4) }
        #expect(throws: BitstreamError.self) { try HEVCDecoderConfigurationRecord(units: [sps]) }
    }
}
