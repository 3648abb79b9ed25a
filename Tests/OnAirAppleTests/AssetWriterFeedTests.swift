import Foundation
import OnAirApple
import OnAirBitstream
import OnAirCore
import OnAirTestSupport
import Testing

/// What an AVAssetWriter passthrough recording is given: held until every track's format is known,
/// video from the first keyframe, 4-byte AVCC samples, one format per track.
@Suite struct AssetWriterFeedTests {
    static let sps = H264DecoderFeedTests.sps1, pps = H264DecoderFeedTests.pps
    static let asc: [UInt8] = [0x11, 0x90]  // AAC-LC, 48 kHz, stereo

    static func video(_ units: [[UInt8]], pts: Int) -> EncodedPacket {
        H264DecoderFeedTests.annexB(units, pts: pts)
    }

    static func audio(pts: Int, config: Bool) -> EncodedPacket {
        EncodedPacket(
            mediaType: .audio, codec: .aac, data: [0x21, 0x10, 0x05], pts: MediaTime(value: Int64(pts), timescale: 30),
            dts: MediaTime(value: Int64(pts), timescale: 30), duration: MediaTime(value: 1024, timescale: 48_000), isKeyframe: true,
            formatDescription: config ? .aac(audioSpecificConfig: asc) : nil)
    }

    @Test func holdsUntilBothFormatsAreKnownAndStartsAtTheEarliest() throws {
        var feed = AssetWriterFeed(tracks: [.video, .audio])
        #expect(try feed.feed(Self.video([H264DecoderFeedTests.slice], pts: 0)) == [.skip(reason: "waiting for the first keyframe")])
        #expect(try feed.feed(Self.audio(pts: 1, config: true)).isEmpty)
        let steps = try feed.feed(Self.video([Self.sps, Self.pps, H264DecoderFeedTests.idr], pts: 2))
        guard case .begin(let video, let audio, let start) = steps.first else {
            Issue.record("no begin: \(steps)")
            return
        }
        #expect(video == AssetWriterFeed.VideoFormat(sps: [Self.sps], pps: [Self.pps]))
        #expect(audio == AssetWriterFeed.AudioFormat(audioSpecificConfig: Self.asc, sampleRate: 48_000, channels: 2))
        #expect(start == MediaTime(value: 1, timescale: 30))
        let samples = steps.dropFirst().compactMap { step -> AssetWriterFeed.Sample? in
            if case .append(let sample) = step { return sample }
            return nil
        }
        #expect(samples.map(\.mediaType) == [.audio, .video])
        #expect(samples[1].bytes == [0, 0, 0, 3] + H264DecoderFeedTests.idr, "4-byte AVCC, parameter sets out of band")
        #expect(samples[1].isKeyframe)
        guard case .append(let next) = try feed.feed(Self.video([H264DecoderFeedTests.slice], pts: 3)).first else {
            Issue.record("no append")
            return
        }
        #expect(!next.isKeyframe && next.bytes == [0, 0, 0, 3] + H264DecoderFeedTests.slice)
        #expect(try feed.feed(Self.audio(pts: 0, config: false)) == [.skip(reason: "before the session start")])
    }

    /// H.265 from libx265: the format carries VPS, SPS and PPS (for an `hvc1` format description),
    /// each sample the picture's own units after 4-byte lengths, the same whichever form came in.
    @Test func h265GoesInAsHvc1SamplesWithItsParameterSetsInTheFormat() throws {
        let dir = try Tools.temporaryDirectory("asset-writer-hevc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let units = HEVCByteStream.accessUnits(HEVCByteStream.split(try HEVCSamplePackagerTests.x265Output(lengthSize: 4, in: dir).annexB))
        try #require(units.count >= 10 && units[0].contains { $0.type.isIRAP })
        var results: [[AssetWriterFeed.Step]] = []
        for form in [BitstreamForm.annexB(parameterSetsInBand: true), .lengthPrefixed(lengthSize: 4, parameterSetsInBand: true)] {
            var feed = AssetWriterFeed(tracks: [.video])
            var steps: [AssetWriterFeed.Step] = []
            for (index, unit) in units.enumerated() { steps += try feed.feed(HEVCDecoderFeedTests.packet(unit, index: index, form: form)) }
            results.append(steps)
        }
        #expect(results[0] == results[1], "Annex-B and length-prefixed input give the same steps")
        guard case .begin(let video?, nil, _)? = results[0].first else {
            Issue.record("no video begin: \(results[0].first.map { "\($0)" } ?? "-")")
            return
        }
        func sets(_ type: HEVCNALUnitType) -> [[UInt8]] { units[0].filter { $0.type == type }.map(\.bytes) }
        #expect(video == AssetWriterFeed.VideoFormat(codec: .h265, vps: sets(.vps), sps: sets(.sps), pps: sets(.pps)))
        #expect(!video.vps.isEmpty && !video.sps.isEmpty && !video.pps.isEmpty)
        let samples = results[0].compactMap { step -> AssetWriterFeed.Sample? in
            if case .append(let sample) = step { return sample }
            return nil
        }
        #expect(samples.count == units.count)
        for (sample, unit) in zip(samples, units) {
            let inside = try HEVCByteStream.units(inSample: sample.bytes, lengthSize: 4)
            #expect(inside.map(\.bytes) == unit.filter { !$0.type.isParameterSet }.map(\.bytes))
            #expect(sample.isKeyframe == unit.contains { $0.type.isIRAP })
        }
    }

    @Test func parameterSetChangeIsRefused() throws {
        var feed = AssetWriterFeed(tracks: [.video])
        #expect(try feed.feed(Self.video([Self.sps, Self.pps, H264DecoderFeedTests.idr], pts: 0)).count == 2)
        #expect(try feed.feed(Self.video([Self.sps, Self.pps, H264DecoderFeedTests.idr], pts: 1)).count == 1)
        #expect(throws: AppleBackendError.self) {
            try feed.feed(Self.video([H264DecoderFeedTests.sps2, Self.pps, H264DecoderFeedTests.idr], pts: 2))
        }
    }

    @Test func aMissingTrackStartsWithWhatThereIsAtTheEndAndIsBounded() throws {
        var feed = AssetWriterFeed(tracks: [.video, .audio])
        _ = try feed.feed(Self.video([Self.sps, Self.pps, H264DecoderFeedTests.idr], pts: 0))
        let steps = try feed.finish()
        #expect(steps.count == 2)
        #expect(steps.first == .begin(video: AssetWriterFeed.VideoFormat(sps: [Self.sps], pps: [Self.pps]), audio: nil, start: .zero))
        var starved = AssetWriterFeed(tracks: [.video, .audio])
        _ = try starved.feed(Self.video([Self.sps, Self.pps, H264DecoderFeedTests.idr], pts: 0))
        #expect(throws: AppleBackendError.self) {
            for index in 1...AssetWriterFeed.maxHeld { _ = try starved.feed(Self.video([H264DecoderFeedTests.slice], pts: index)) }
        }
        #expect(AssetWriterFeed.movieFragmentInterval > 0)
    }
}
