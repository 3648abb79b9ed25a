import Foundation
import OnAirApple
import OnAirBitstream
import OnAirCore
import OnAirTestSupport
import Testing

/// `hvc1` samples plus VPS/SPS/PPS (what a VideoToolbox HEVC session hands out) → Annex-B with the
/// parameter sets before every IRAP picture, or length-prefixed with them in the format
/// description; checked against a libx265 stream made by ffmpeg and decoded by ffmpeg.
@Suite struct HEVCSamplePackagerTests {
    /// libx265's Annex-B stream split as VideoToolbox would hand it out: per access unit, the
    /// sample without parameter sets in `lengthSize`-byte lengths, and the parameter sets seen.
    static func x265Output(lengthSize: Int, in directory: URL) throws -> (annexB: [UInt8], samples: [([UInt8], [[UInt8]], Bool)]) {
        let path = directory.appendingPathComponent("x265.h265").path
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=25", "-frames:v", "25", "-c:v", "libx265", "-preset", "ultrafast",
            "-x265-params", "log-level=error:keyint=10:min-keyint=10:bframes=0:open-gop=0:repeat-headers=1", "-f", "hevc", path,
        ])
        let annexB = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var sets: [[UInt8]] = []
        var samples: [([UInt8], [[UInt8]], Bool)] = []
        for unit in HEVCByteStream.accessUnits(HEVCByteStream.split(annexB)) {
            let inBand = unit.filter { $0.type.isParameterSet }.map(\.bytes)
            if !inBand.isEmpty { sets = inBand }
            // Parameter sets and libx265's SEI left out of the sample, as a session's are.
            let rest = unit.filter { $0.type.isVCL }
            let irap = rest.first?.type.isIRAP ?? false
            samples.append((try HEVCByteStream.sample(from: rest, lengthSize: lengthSize), sets.reversed(), irap))
        }
        return (annexB, samples)
    }

    static func frameHashes(_ bytes: [UInt8], in directory: URL, name: String) throws -> [String] {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try Tools.run("ffmpeg", ["-hide_banner", "-v", "error", "-f", "hevc", "-i", path, "-f", "framemd5", "-"])
        #expect(result.status == 0 && result.stderr.isEmpty, "ffmpeg: \(result.stderr)")
        return result.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last ?? "") }
    }

    @Test(.enabled(if: toolExists("ffmpeg"), "ffmpeg is not installed"), arguments: [2, 4])
    func annexBOutputDecodesAsLibx265sOwnStream(lengthSize: Int) throws {
        let directory = try Tools.temporaryDirectory("onair-apple-hevc-packager")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Self.x265Output(lengthSize: lengthSize, in: directory)
        let packager = try HEVCSamplePackager()
        var stream: [UInt8] = []
        for (index, (sample, sets, irap)) in output.samples.enumerated() {
            // The parameter sets in an order of their own: the packager sorts them VPS, SPS, PPS.
            let packet = try packager.packet(
                sample: sample, lengthSize: lengthSize, parameterSets: sets, pts: MediaTime(value: Int64(index), timescale: 25),
                duration: MediaTime(value: 1, timescale: 25))
            #expect(packet.isKeyframe == irap && packet.isKeyframe == (index % 10 == 0), "picture \(index)")
            #expect((packet.formatDescription != nil) == packet.isKeyframe)
            let types = HEVCByteStream.split(packet.data).map(\.type)
            if packet.isKeyframe {
                #expect(Array(types.prefix(3)) == [.vps, .sps, .pps], "VPS/SPS/PPS before the IRAP picture: \(types)")
            } else {
                #expect(!types.contains { $0.isParameterSet })
            }
            stream += packet.data
        }
        let decoded = try Self.frameHashes(stream, in: directory, name: "packaged.h265")
        #expect(decoded.count == 25)
        #expect(decoded == (try Self.frameHashes(output.annexB, in: directory, name: "original.h265")))
    }

    @Test func lengthPrefixedOutputKeepsTheParameterSetsInTheDescriptionAndRefusesBadInput() throws {
        let directory = try Tools.temporaryDirectory("onair-apple-hevc-packager-hvc1")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Self.x265Output(lengthSize: 4, in: directory)
        let packager = try HEVCSamplePackager(outputForm: .lengthPrefixed(lengthSize: 4, parameterSetsInBand: false))
        let (sample, sets, _) = output.samples[0]
        let key = try packager.packet(sample: sample, lengthSize: 4, parameterSets: sets, pts: .zero, duration: .zero)
        #expect(key.isKeyframe && key.data == sample, "the sample as it came, parameter sets out of band")
        guard case .h265(let vps, let sps, let pps)? = key.formatDescription else {
            Issue.record("no H.265 description: \(String(describing: key.formatDescription))")
            return
        }
        #expect(vps.count == 1 && sps.count == 1 && pps.count == 1)
        // An IRAP picture without its parameter sets, a slice among them, an empty sample.
        #expect(throws: BitstreamError.self) {
            try packager.packet(sample: sample, lengthSize: 4, parameterSets: [sps[0]], pts: .zero, duration: .zero)
        }
        #expect(throws: BitstreamError.self) {
            let slice = Array(sample.dropFirst(4))
            return try packager.packet(sample: sample, lengthSize: 4, parameterSets: sets + [slice], pts: .zero, duration: .zero)
        }
        #expect(throws: BitstreamError.self) {
            try packager.packet(sample: [0, 0, 0, 9, 1], lengthSize: 4, parameterSets: sets, pts: .zero, duration: .zero)
        }
    }
}
