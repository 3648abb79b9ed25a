import Foundation
import OnAirApple
import OnAirBitstream
import OnAirCore
import OnAirTestSupport
import Testing

/// What a VTDecompressionSession decoding H.265 is fed, from a libx265 stream made by ffmpeg: joining
/// mid-GOP waits for parameter sets and an IRAP picture, the samples it hands out (4-byte lengths,
/// parameter sets in the format description) are the stream's own pictures — ffmpeg decodes them to
/// the same frames — and a decode error skips to the next IRAP picture.
@Suite struct HEVCDecoderFeedTests {
    static func packet(_ units: [HEVCNALUnit], index: Int, form: BitstreamForm = .annexB(parameterSetsInBand: true))
        throws -> EncodedPacket
    {
        let data: [UInt8]
        switch form {
        case .lengthPrefixed(let size, _): data = try HEVCByteStream.sample(from: units, lengthSize: size)
        default: data = HEVCByteStream.joinAnnexB(units)
        }
        return EncodedPacket(
            mediaType: .video, codec: .h265, data: data, pts: MediaTime(value: Int64(index), timescale: 25),
            dts: MediaTime(value: Int64(index), timescale: 25), duration: MediaTime(value: 1, timescale: 25),
            isKeyframe: units.contains { $0.type.isIRAP }, formatDescription: nil, form: form)
    }

    @Test func joiningMidGOPDecodesTheStreamsOwnPicturesFromTheNextIRAP() throws {
        let dir = try Tools.temporaryDirectory("hevc-feed")
        defer { try? FileManager.default.removeItem(at: dir) }
        let stream = try HEVCSamplePackagerTests.x265Output(lengthSize: 4, in: dir).annexB
        let units = HEVCByteStream.accessUnits(HEVCByteStream.split(stream))
        #expect(units.count == 25)
        var feed = HEVCDecoderFeed()
        var configured: [[UInt8]] = [], rebuilt: [HEVCNALUnit] = [], keys: [Bool] = []
        for (index, unit) in units.enumerated().dropFirst(3) {
            for step in try feed.feed(Self.packet(unit, index: index)) {
                switch step {
                case .configure(let sets):
                    configured = sets
                case .decode(let sample, let pts, _, let key):
                    #expect(pts == MediaTime(value: Int64(index), timescale: 25))
                    keys.append(key)
                    let pictures = try HEVCByteStream.units(inSample: sample, lengthSize: 4)
                    #expect(!pictures.contains { $0.type.isParameterSet }, "parameter sets left in a sample")
                    rebuilt += (key ? try configured.map(HEVCNALUnit.init) : []) + pictures
                case .skip:
                    break
                }
            }
        }
        // keyint 10: frames 3–9 wait; 10 and 20 are IRAP pictures.
        #expect(feed.skipped == 7 && feed.configurations == 1, "skipped \(feed.skipped), configured \(feed.configurations)")
        #expect(keys.count == 15 && keys[0] && keys[10] && keys.filter { $0 }.count == 2, "\(keys)")
        #expect(configured.map { HEVCNALUnitType(rawValue: $0[0] >> 1) } == [.vps, .sps, .pps])
        let original = try HEVCSamplePackagerTests.frameHashes(stream, in: dir, name: "original.h265")
        let fed = try HEVCSamplePackagerTests.frameHashes(HEVCByteStream.joinAnnexB(rebuilt), in: dir, name: "fed.h265")
        #expect(fed == Array(original.suffix(15)), "the fed pictures decode to other frames")
    }

    @Test func lengthPrefixedPacketsTakeParameterSetsFromTheirDescriptionAndErrorsWaitForAnIRAP() throws {
        let dir = try Tools.temporaryDirectory("hevc-feed-hvc1")
        defer { try? FileManager.default.removeItem(at: dir) }
        let units = HEVCByteStream.accessUnits(HEVCByteStream.split(try HEVCSamplePackagerTests.x265Output(lengthSize: 4, in: dir).annexB))
        let sets = units[0].filter { $0.type.isParameterSet }
        var feed = HEVCDecoderFeed()
        func steps(_ index: Int) throws -> [HEVCDecoderFeed.Step] {
            var packet = try Self.packet(
                units[index].filter { !$0.type.isParameterSet }, index: index,
                form: .lengthPrefixed(lengthSize: 4, parameterSetsInBand: false))
            packet.formatDescription = .h265(
                vps: sets.filter { $0.type == .vps }.map(\.bytes), sps: sets.filter { $0.type == .sps }.map(\.bytes),
                pps: sets.filter { $0.type == .pps }.map(\.bytes))
            return try feed.feed(packet)
        }
        let first = try steps(0)
        #expect(first.first == .configure(parameterSets: sets.map(\.bytes)) && first.count == 2)
        #expect(try steps(1).count == 1)
        feed.decodeFailed()
        #expect(try steps(2) == [.skip(reason: "waiting for an IRAP picture")])
        guard case .decode(_, _, _, true)? = try steps(10).first else {
            Issue.record("the next IRAP picture was not decoded")
            return
        }
        var h264 = try Self.packet(units[1], index: 1)
        h264.codec = .h264
        #expect(throws: BitstreamError.self) { try feed.feed(h264) }
    }
}
