#if os(Linux)
import Foundation
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirServing

/// `#EXT-X-DISCONTINUITY` in the served live playlist after an encode restart: playlists as
/// libavformat's hls muxer writes them, restarts injected, no muxer and no clock.
@Suite struct ServeHLSDiscontinuitiesTests {
    /// A live playlist listing `segments` as the muxer writes it (1 s each).
    static func playlist(_ segments: ClosedRange<Int>) -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:\(segments.lowerBound)\n"
        text += "#EXT-X-INDEPENDENT-SEGMENTS\n"
        for number in segments { text += "#EXTINF:1.000000,\nsegment_\(number).ts\n" }
        return Array(text.utf8)
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func aRestartTagsTheNextSegmentAndItsLeavingCountsInTheDiscontinuitySequence() {
        let discontinuities = ServeHLSDiscontinuities()
        #expect(discontinuities.playlist(Self.playlist(0...3)) == Self.playlist(0...3), "no restart, no change")
        discontinuities.mark(before: 5)
        // Segment 5 not listed yet: nothing to tag.
        #expect(discontinuities.playlist(Self.playlist(0...4)) == Self.playlist(0...4))
        let tagged = Self.text(discontinuities.playlist(Self.playlist(1...6)))
        #expect(tagged.contains("segment_4.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:1.000000,\nsegment_5.ts\n"), "\(tagged)")
        #expect(tagged.components(separatedBy: "#EXT-X-DISCONTINUITY\n").count == 2, "\(tagged)")
        #expect(!tagged.contains("DISCONTINUITY-SEQUENCE"), "\(tagged)")
        // Segment 5 is first in the list: still tagged; then it leaves, and the sequence counts it.
        #expect(Self.text(discontinuities.playlist(Self.playlist(5...10))).contains("#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-DISCONTINUITY\n"))
        let later = Self.text(discontinuities.playlist(Self.playlist(6...11)))
        #expect(!later.contains("#EXT-X-DISCONTINUITY\n"), "\(later)")
        #expect(later.contains("#EXT-X-MEDIA-SEQUENCE:6\n#EXT-X-DISCONTINUITY-SEQUENCE:1\n"), "\(later)")
    }

    @Test func oneSegmentMarkedTwiceHasOneTagAndLaterOnesTheirOwn() {
        let discontinuities = ServeHLSDiscontinuities()
        discontinuities.mark(before: 3)
        discontinuities.mark(before: 3)
        discontinuities.mark(before: 5)
        let tagged = Self.text(discontinuities.playlist(Self.playlist(0...5)))
        #expect(tagged.components(separatedBy: "#EXT-X-DISCONTINUITY\n").count == 3, "\(tagged)")
        #expect(tagged.contains("#EXT-X-DISCONTINUITY\n#EXTINF:1.000000,\nsegment_3.ts\n"), "\(tagged)")
        #expect(tagged.contains("#EXT-X-DISCONTINUITY\n#EXTINF:1.000000,\nsegment_5.ts\n"), "\(tagged)")
        // Both leave at once (a reader that missed a few reloads of the list).
        let later = Self.text(discontinuities.playlist(Self.playlist(8...13)))
        #expect(later.contains("#EXT-X-DISCONTINUITY-SEQUENCE:2\n") && !later.contains("#EXT-X-DISCONTINUITY\n"), "\(later)")
    }

    final class Recorder: PacketSink {
        var destination: String { "recorder" }
        var written = 0
        func write(_ packet: EncodedPacket) throws { written += 1 }
        func finish() throws {}
    }

    /// A segment file of `size` bytes holding `parameterSets` (start code + NAL unit) at spread positions.
    static func segment(_ parameterSets: [[UInt8]], size: Int = 4096) -> Data {
        var bytes = [UInt8](repeating: 0xFF, count: size)
        for (index, set) in parameterSets.enumerated() {
            let at = 100 + index * 1000
            bytes.replaceSubrange(at..<at + set.count + 3, with: [0, 0, 1] + set)
        }
        return Data(bytes)
    }

    @Test func theSinkTagsTheFirstSegmentHoldingOnlyTheNewParameterSets() throws {
        let directory = try Tools.temporaryDirectory("serve-hls-discontinuity")
        defer { try? FileManager.default.removeItem(at: directory) }
        let playlist = directory.appendingPathComponent("stream.m3u8")
        let (oldSPS, newSPS, pps): ([UInt8], [UInt8], [UInt8]) = ([0x67, 0x42, 0xC0, 0x0D], [0x67, 0x42, 0xC0, 0x15], [0x68, 0xCE])
        func file(_ number: Int, _ sets: [[UInt8]]) throws {
            try Self.segment(sets).write(to: directory.appendingPathComponent("segment_\(number).ts"))
        }
        // The muxer has listed 7 to 12 when the change reaches it.
        try Data(Self.playlist(7...12)).write(to: playlist)
        for number in 7...12 { try file(number, [oldSPS, pps]) }
        let discontinuities = ServeHLSDiscontinuities()
        let inner = Recorder()
        let sink = ServeHLSSink(inner, playlist: playlist.path, discontinuities: discontinuities)
        func packet(_ type: MediaType, _ description: FormatDescription, key: Bool = true) -> EncodedPacket {
            EncodedPacket(
                mediaType: type, codec: type == .video ? .h264 : .aac, data: [0], pts: .zero, dts: .zero,
                duration: .zero, isKeyframe: key, formatDescription: description)
        }
        let old = FormatDescription.h264(sps: [oldSPS], pps: [pps])
        let new = FormatDescription.h264(sps: [newSPS], pps: [pps])
        try sink.write(packet(.video, old))
        try sink.write(packet(.audio, .aac(audioSpecificConfig: [0x12, 0x10])))
        try sink.write(packet(.video, new))
        #expect(discontinuities.playlist(Self.playlist(7...12)) == Self.playlist(7...12), "nothing found yet")
        // 13 still old (held in the muxer's queue), 14 holds the change, 15 is all new.
        try file(13, [oldSPS, pps])
        try file(14, [oldSPS, pps, newSPS])
        try Data(Self.playlist(9...14)).write(to: playlist)
        try sink.write(packet(.video, new, key: false))
        try sink.write(packet(.video, new))
        #expect(discontinuities.playlist(Self.playlist(9...14)) == Self.playlist(9...14), "13 and 14 hold old ones")
        try file(15, [newSPS, pps])
        try Data(Self.playlist(10...15)).write(to: playlist)
        try sink.write(packet(.video, new))
        #expect(inner.written == 6)
        let tagged = Self.text(discontinuities.playlist(Self.playlist(10...15)))
        #expect(tagged.components(separatedBy: "#EXT-X-DISCONTINUITY\n").count == 2, "\(tagged)")
        #expect(tagged.contains("segment_14.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:1.000000,\nsegment_15.ts\n"), "\(tagged)")
        #expect(ServeHLSSink.holdsAny([[0, 0, 1, 0x67, 0x42, 0xC0, 0x15]], in: [9, 0, 0, 0, 1, 0x67, 0x42, 0xC0, 0x15]))
        #expect(!ServeHLSSink.holdsAny([[0, 0, 1, 0x67, 0x42, 0xC0, 0x15]], in: [9, 0, 0, 1, 0x67, 0x42, 0xC0]))
    }
}
#endif
