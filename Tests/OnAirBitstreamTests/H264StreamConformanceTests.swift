import Foundation
import OnAirBitstream
import OnAirTestSupport
import Testing

/// Encodes streams with x264 and checks our parse against ffprobe, plus byte-exact round trips.
@Suite("H264 streams against ffprobe")
struct H264StreamConformanceTests {
    @Test(arguments: H264StreamCase.all)
    func stream(_ testCase: H264StreamCase) throws {
        let (bytes, url) = try H264TestMedia.encode(
            size: testCase.size, rate: testCase.rate, frames: testCase.frames,
            filter: testCase.filter, testCase.arguments)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let units = AnnexB.split(bytes)
        #expect(AnnexB.join(units) == bytes, "Annex-B round trip")

        var splitter = H264AccessUnitSplitter()
        var accessUnits: [H264AccessUnit] = []
        for unit in units { accessUnits += splitter.push(unit) }
        accessUnits += splitter.finish()
        #expect(splitter.damagedUnits == 0)
        #expect(accessUnits.allSatisfy { $0.hasVCL && $0.firstSlice != nil && $0.damagedUnits == 0 })
        #expect(accessUnits.flatMap(\.units) == units)

        for unit in units where unit.type == .sei {
            #expect(throws: Never.self) { try H264SEIMessage.messages(in: unit) }
        }
        let messages = units.filter { $0.type == .sei }.flatMap { (try? H264SEIMessage.messages(in: $0)) ?? [] }
        let userData = messages.first { $0.payloadType == 5 }
        #expect(userData.map { String(decoding: $0.payload, as: UTF8.self).contains("x264 - core") } == true)

        let sps = try H264SPS(try #require(units.first { $0.type == .sps }))
        let pps = try H264PPS(try #require(units.first { $0.type == .pps }), spsLookup: { _ in sps })
        #expect(sps.profileName == testCase.profile)
        try compareStream(sps, url: url, testCase: testCase)
        try compareFrames(accessUnits, url: url)
        try checkAVCCRoundTrips(accessUnits, original: bytes)
        if testCase.checkMP4 {
            try checkAVCDecoderConfigurationRecord(url: url, units: units)
        }
        testCase.check(sps, pps, accessUnits)
    }

    /// Compares the SPS with `ffprobe -show_streams`.
    private func compareStream(_ sps: H264SPS, url: URL, testCase: H264StreamCase) throws {
        let stream = try H264TestMedia.probeStream(url)
        #expect(sps.profileName == stream["profile"] as? String)
        #expect(Int((sps.level * 10).rounded()) == stream["level"] as? Int)
        #expect(sps.width == stream["width"] as? Int)
        #expect(sps.height == stream["height"] as? Int)
        // ffprobe 5.1 reports coded_width/coded_height equal to the display size without decoding,
        // so the coded size is checked against the macroblock grid instead.
        #expect(sps.codedWidth == (sps.width + 15) / 16 * 16)
        let rowUnit = sps.frameMbsOnly ? 16 : 32
        #expect(sps.codedHeight == (sps.height + rowUnit - 1) / rowUnit * rowUnit)
        if testCase.comparePixelFormat {
            let format = try #require(stream["pix_fmt"] as? String)
            let expected = try #require(H264TestMedia.chromaAndDepth(pixelFormat: format))
            #expect(sps.chromaFormatIdc == expected.chroma)
            #expect(sps.bitDepthLuma == expected.depth && sps.bitDepthChroma == expected.depth)
        }
        if let fraction = sps.frameRateFraction {
            // From libavformat 61 (FFmpeg 7) on, ffprobe gives a raw stream's r_frame_rate as the VUI
            // tick rate (time_scale / num_units_in_tick, twice the frame rate): AVCodecContext's
            // ticks_per_frame is gone. 5.1 gave the frame rate.
            let ticks = H264TestMedia.ffprobeLibavformatMajor >= 61 ? 2 : 1
            #expect("\(fraction.numerator * ticks)/\(fraction.denominator)" == stream["r_frame_rate"] as? String)
        } else {
            Issue.record("x264 always writes VUI timing")
        }
        #expect((sps.reorderDepth ?? -1) == stream["has_b_frames"] as? Int)
        #expect(sps.frameMbsOnly == (stream["field_order"] as? String == "progressive"))
        if let vui = sps.vui, vui.aspectRatioIdc != nil {
            #expect("\(vui.sarWidth):\(vui.sarHeight)" == stream["sample_aspect_ratio"] as? String)
        }
        if let primaries = sps.vui?.colourPrimaries, primaries == 1 {
            #expect(stream["color_primaries"] as? String == "bt709")
        }
        #expect(sps.vui?.videoFullRange == (stream["color_range"] as? String == "pc"))
    }

    /// Compares the access units with the frames `ffprobe -show_frames` decodes.
    private func compareFrames(_ accessUnits: [H264AccessUnit], url: URL) throws {
        let frames = try H264TestMedia.probeFrames(url)
        let pictures = accessUnits.filter { !$0.isSecondField }
        #expect(pictures.count == frames.count)
        #expect(pictures.filter(\.isRandomAccessPoint).count == frames.filter(\.keyFrame).count)
        let ourTypes = pictures.map { $0.primarySliceType?.description ?? "?" }.sorted()
        #expect(ourTypes == frames.map(\.pictType).sorted())
    }

    /// Converts every access unit to AVCC with 1, 2 and 4-byte lengths and back.
    private func checkAVCCRoundTrips(_ accessUnits: [H264AccessUnit], original: [UInt8]) throws {
        for lengthSize in [1, 2, 4] {
            let limit = (1 << (8 * lengthSize)) - 1
            var annexB: [UInt8] = []
            var fits = true
            for accessUnit in accessUnits {
                guard accessUnit.units.allSatisfy({ $0.bytes.count <= limit }) else {
                    fits = false
                    #expect(throws: BitstreamError.self) { try AVCC.sample(from: accessUnit.units, lengthSize: lengthSize) }
                    continue
                }
                let sample = try AVCC.sample(from: accessUnit.units, lengthSize: lengthSize)
                #expect(try AVCC.units(in: sample, lengthSize: lengthSize) == accessUnit.units)
                let converted = try AVCC.toAnnexB(sample, lengthSize: lengthSize)
                #expect(try AVCC.fromAnnexB(converted, lengthSize: lengthSize) == sample)
                annexB += converted
            }
            if fits {
                #expect(annexB == original, "AVCC with \(lengthSize)-byte lengths back to Annex-B")
            }
        }
    }

    /// Remuxes to MP4 and checks the `avcC` record: parse, serialize and rebuild from the units.
    private func checkAVCDecoderConfigurationRecord(url: URL, units: [H264NALUnit]) throws {
        let mp4 = try H264TestMedia.remuxToMP4(url)
        let payload = try #require(H264TestMedia.avcCPayload(inMP4: mp4))
        let record = try AVCDecoderConfigurationRecord(parsing: payload)
        #expect(record.serialized() == payload)
        #expect(record.trailingBytes.isEmpty)
        let spsUnits = units.filter { $0.type == .sps }
        let ppsUnits = units.filter { $0.type == .pps }
        #expect(record.sequenceParameterSets == [spsUnits[0]])
        #expect(record.pictureParameterSets == [ppsUnits[0]])
        #expect(try H264SPS(record.sequenceParameterSets[0]) == H264SPS(spsUnits[0]))
        #expect(record.lengthSize == 4)
        let sps = try H264SPS(spsUnits[0])
        if record.hasExtension {
            #expect(record.chromaFormat.map(Int.init) == sps.chromaFormatIdc)
            #expect(record.bitDepthLuma.map(Int.init) == sps.bitDepthLuma)
        }
        let rebuilt = try AVCDecoderConfigurationRecord(sps: [spsUnits[0]], pps: [ppsUnits[0]])
        #expect(rebuilt == record)
        #expect(rebuilt.serialized() == payload)
    }
}
