import Foundation
import OnAirApple
import OnAirBitstream
import OnAirCore
import OnAirTestSupport
import Testing

/// AVCC samples plus parameter sets (what VTCompressionSession hands out) → Annex-B with SPS/PPS
/// before every IDR, or AVCC + avcC; checked against x264 streams made by ffmpeg and decoded by ffmpeg.
@Suite struct H264SamplePackagerTests {
    /// An x264 stream (Annex-B, parameter sets before each IDR) as VideoToolbox would hand it out:
    /// per access unit, the sample without SPS/PPS in `lengthSize`-byte AVCC and the parameter sets.
    struct EncoderOutput {
        var annexB: [UInt8]
        var samples: [(sample: [UInt8], sps: [[UInt8]], pps: [[UInt8]], idr: Bool)]
    }

    static func x264Output(lengthSize: Int, in directory: URL) throws -> EncoderOutput {
        let path = directory.appendingPathComponent("x264.h264").path
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=25", "-frames:v", "25", "-c:v", "libx264",
            "-profile:v", "baseline", "-g", "10", "-bf", "0", "-f", "h264", path,
        ])
        let annexB = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var samples: [(sample: [UInt8], sps: [[UInt8]], pps: [[UInt8]], idr: Bool)] = []
        var sps: [[UInt8]] = [], pps: [[UInt8]] = []
        for unit in H264AccessUnitSplitter.split(AnnexB.split(annexB)) {
            let inBandSPS = unit.units.filter { $0.type == .sps }.map(\.bytes)
            let inBandPPS = unit.units.filter { $0.type == .pps }.map(\.bytes)
            if !inBandSPS.isEmpty { sps = inBandSPS }
            if !inBandPPS.isEmpty { pps = inBandPPS }
            let rest = unit.units.filter { $0.type != .sps && $0.type != .pps }
            samples.append((try AVCC.sample(from: rest, lengthSize: lengthSize), sps, pps, unit.isIDR))
        }
        return EncoderOutput(annexB: annexB, samples: samples)
    }

    static func frameHashes(_ bytes: [UInt8], in directory: URL, name: String) throws -> [String] {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try Tools.run("ffmpeg", ["-hide_banner", "-v", "error", "-f", "h264", "-i", path, "-f", "framemd5", "-"])
        #expect(result.status == 0, "ffmpeg: \(result.stderr)")
        return result.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last ?? "") }
    }

    @Test(.enabled(if: toolExists("ffmpeg"), "ffmpeg is not installed"), arguments: [2, 4])
    func annexBOutputIsTheX264StreamAndDecodes(lengthSize: Int) throws {
        let directory = try Tools.temporaryDirectory("onair-apple-packager")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Self.x264Output(lengthSize: lengthSize, in: directory)
        let packager = try H264SamplePackager()
        var stream: [UInt8] = []
        for (index, sample) in output.samples.enumerated() {
            let pts = MediaTime(value: Int64(index), timescale: 25)
            let packet = try packager.packet(
                sample: sample.sample, lengthSize: lengthSize, sps: sample.sps, pps: sample.pps, pts: pts,
                duration: MediaTime(value: 1, timescale: 25))
            #expect(packet.isKeyframe == sample.idr)
            #expect(packet.isKeyframe == (index % 10 == 0))
            #expect((packet.formatDescription != nil) == packet.isKeyframe)
            #expect(packet.form == .annexB(parameterSetsInBand: true))
            let units = AnnexB.split(packet.data)
            if packet.isKeyframe {
                #expect(Array(units.prefix(2).map(\.type)) == [.sps, .pps], "SPS/PPS before the IDR")
            } else {
                #expect(!units.contains { $0.type == .sps || $0.type == .pps })
            }
            stream += packet.data
        }
        #expect(stream == output.annexB, "x264's own stream, byte for byte")
        let decoded = try Self.frameHashes(stream, in: directory, name: "packaged.h264")
        #expect(decoded.count == 25)
        #expect(decoded == (try Self.frameHashes(output.annexB, in: directory, name: "original.h264")))
    }

    @Test(arguments: [1, 2, 4])
    func lengthPrefixedOutputWithAvcC(outputLengthSize: Int) throws {
        let sps: [UInt8] = [
            0x67, 0x42, 0xC0, 0x1E, 0xDA, 0x02, 0x80, 0xBF, 0xE5, 0x84, 0x00, 0x00, 0x03, 0x00, 0x04, 0x00, 0x00, 0x03, 0x00, 0xC8, 0x3C,
            0x58, 0xBA, 0x80,
        ]
        let pps: [UInt8] = [0x68, 0xCE, 0x0F, 0x2C, 0x80]
        let idr: [UInt8] = [0x65, 0x88, 0x84, 0x00, 0x33, 0xFF]
        let slice: [UInt8] = [0x41, 0x9A, 0x21, 0x6C, 0x41]
        let packager = try H264SamplePackager(outputForm: .lengthPrefixed(lengthSize: outputLengthSize, parameterSetsInBand: false))
        for inputLengthSize in [1, 2, 4] {
            let key = try packager.packet(
                sample: try AVCC.sample(from: [try H264NALUnit(idr)], lengthSize: inputLengthSize), lengthSize: inputLengthSize,
                sps: [sps], pps: [pps], pts: .zero, duration: MediaTime(value: 1, timescale: 30))
            #expect(key.isKeyframe)
            #expect(key.formatDescription == .h264(sps: [sps], pps: [pps]))
            #expect(try AVCC.units(in: key.data, lengthSize: outputLengthSize).map(\.bytes) == [idr], "parameter sets out of band")
            // The shared conversion gives Annex-B with the parameter sets back in band.
            let annexB = try key.converted(to: .annexB(parameterSetsInBand: true))
            #expect(AnnexB.split(annexB.bytes).map(\.bytes) == [idr])
            let other = try packager.packet(
                sample: try AVCC.sample(from: [try H264NALUnit(slice)], lengthSize: inputLengthSize), lengthSize: inputLengthSize,
                sps: [sps], pps: [pps], pts: .zero, duration: .zero)
            #expect(!other.isKeyframe && other.formatDescription == nil)
        }
        let record = try AVCDecoderConfigurationRecord(parsing: try packager.decoderConfiguration(sps: [sps], pps: [pps]))
        #expect(record.lengthSize == outputLengthSize)
        #expect(record.sequenceParameterSets.map(\.bytes) == [sps] && record.pictureParameterSets.map(\.bytes) == [pps])
        #expect(record.profileIndication == 0x42)
    }

    @Test func inBandParameterSetsAreNotDoubledAndAUDStaysFirst() throws {
        let sps: [UInt8] = [
            0x67, 0x42, 0xC0, 0x1E, 0xDA, 0x02, 0x80, 0xBF, 0xE5, 0x84, 0x00, 0x00, 0x03, 0x00, 0x04, 0x00, 0x00, 0x03, 0x00, 0xC8, 0x3C,
            0x58, 0xBA, 0x80,
        ]
        let pps: [UInt8] = [0x68, 0xCE, 0x0F, 0x2C, 0x80]
        let units = try [[0x09, 0x10], sps, pps, [0x06, 0x05, 0x01, 0x80], [0x65, 0x88, 0x84]].map(H264NALUnit.init)
        let packet = try H264SamplePackager().packet(
            sample: try AVCC.sample(from: units, lengthSize: 4), lengthSize: 4, sps: [sps], pps: [pps], pts: .zero,
            duration: .zero)
        #expect(AnnexB.split(packet.data).map(\.type) == [.accessUnitDelimiter, .sps, .pps, .sei, .idr])
    }

    @Test func malformedSamplesThrow() throws {
        let packager = try H264SamplePackager()
        let cases: [([UInt8], Int)] = [
            ([0, 0, 0, 9, 0x65], 4),  // length past the end
            ([0, 0], 4),  // truncated length
            ([0, 0, 0, 0], 4),  // empty unit
            ([1, 0x85], 1),  // forbidden_zero_bit
            ([2, 0x06, 0x05], 1),  // no slice
            ([2, 0x65, 0x88], 3),  // 3-byte lengths
            ([2, 0x65, 0x88], 1),  // IDR without parameter sets
        ]
        for (sample, lengthSize) in cases {
            #expect(throws: BitstreamError.self, "\(sample)") {
                try packager.packet(sample: sample, lengthSize: lengthSize, sps: [], pps: [], pts: .zero, duration: .zero)
            }
        }
        #expect(throws: BitstreamError.self) {
            try H264SamplePackager(outputForm: .lengthPrefixed(lengthSize: 3, parameterSetsInBand: false))
        }
        #expect(throws: BitstreamError.self) { try H264SamplePackager(outputForm: .raw) }
        // A unit too long for 1-byte output lengths.
        let oneByte = try H264SamplePackager(outputForm: .lengthPrefixed(lengthSize: 1, parameterSetsInBand: false))
        let long = try AVCC.sample(from: [try H264NALUnit([0x41] + [UInt8](repeating: 0x55, count: 300))], lengthSize: 2)
        #expect(throws: BitstreamError.self) {
            try oneByte.packet(sample: long, lengthSize: 2, sps: [], pps: [], pts: .zero, duration: .zero)
        }
    }
}
