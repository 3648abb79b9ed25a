#if os(Linux)
import Foundation
import OnAirBitstream
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirServing

@Suite struct RTPPacketizerTests {
    static let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1E, 0xDA, 0x02, 0x80, 0xBF]
    static let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]

    /// An H.264 access unit of `units` in Annex-B.
    static func h264(_ units: [[UInt8]], pts: Double = 0, keyframe: Bool = false, description: FormatDescription? = nil) -> EncodedPacket {
        EncodedPacket(
            mediaType: .video, codec: .h264, data: units.flatMap { [0, 0, 0, 1] + $0 }, pts: MediaTime(seconds: pts),
            dts: MediaTime(seconds: pts), duration: MediaTime(value: 1, timescale: 30), isKeyframe: keyframe, formatDescription: description
        )
    }

    /// A NAL unit of `count` bytes with header `header` and a body that has no start code.
    static func unit(_ header: [UInt8], count: Int) -> [UInt8] {
        header + (0..<(count - header.count)).map { UInt8(1 + $0 % 250) }
    }

    static func packetizer(_ codec: MediaCodec = .h264, size: Int = 100, sequence: UInt16 = 0, base: UInt32 = 0) throws -> RTPPacketizer {
        try RTPPacketizer(
            codec: codec, payloadType: 96, formatDescription: nil, maximumPayloadSize: size, sequenceBase: sequence, timestampBase: base)
    }

    @Test func aNALUnitOfExactlyThePayloadSizeGoesWhole() throws {
        var packetizer = try Self.packetizer()
        let nal = Self.unit([0x65], count: 100)
        let packets = try packetizer.packetize(Self.h264([nal], keyframe: false))
        #expect(packets.count == 1)
        #expect(packets[0].payload == nal)
        #expect(packets[0].prefix.isEmpty && packets[0].marker)
    }

    @Test func oneByteMoreIsFragmentedIntoFUAWithStartAndEndBits() throws {
        var packetizer = try Self.packetizer()
        let nal = Self.unit([0x65], count: 101)
        let packets = try packetizer.packetize(Self.h264([nal]))
        #expect(packets.count == 2)
        // FU indicator: NRI of 0x65 (0x60) and type 28; FU header: S or E and type 5.
        #expect(packets[0].prefix == [0x7C, 0x85])
        #expect(packets[1].prefix == [0x7C, 0x45])
        #expect(packets.map(\.payloadCount) == [100, 4])
        #expect(packets.map(\.marker) == [false, true])
        // The fragments' bodies joined after the original header are the unit again.
        #expect([nal[0]] + packets.flatMap { Array($0.payload.dropFirst(2)) } == nal)
        #expect(packets.allSatisfy { $0.payloadCount <= 100 })
    }

    @Test func aLargeUnitFillsEveryFragmentButTheLast() throws {
        var packetizer = try Self.packetizer()
        let nal = Self.unit([0x41], count: 1000)
        let packets = try packetizer.packetize(Self.h264([nal]))
        // 999 bytes after the header, 98 a fragment: 11 packets, the last with 19.
        #expect(packets.count == 11)
        #expect(packets.dropLast().allSatisfy { $0.payloadCount == 100 })
        #expect(packets.last?.payloadCount == 21)
        #expect(packets.filter { $0.prefix[1] & 0x80 != 0 }.count == 1)
        #expect(packets.filter { $0.prefix[1] & 0x40 != 0 }.count == 1)
        #expect([nal[0]] + packets.flatMap { Array($0.payload.dropFirst(2)) } == nal)
    }

    @Test func tinyUnitsAndTheMarkerOnlyOnTheAccessUnitsLastPacket() throws {
        var packetizer = try Self.packetizer()
        let units = [[0x09, 0xF0], [0x06, 0x05], Self.unit([0x41], count: 150), [0x41, 0x9A]]
        let packets = try packetizer.packetize(Self.h264(units))
        // The delimiter is left out; the SEI alone, the slice in two fragments, the small slice alone.
        #expect(packets.count == 4)
        #expect(packets.map(\.marker) == [false, false, false, true])
        #expect(packets.map(\.startsAccessUnit) == [true, false, false, false])
        #expect(packets.allSatisfy { !$0.startsKeyframe })
        #expect(packets[0].payload == [0x06, 0x05])
        #expect(packets[3].payload == [0x41, 0x9A])
    }

    @Test func aKeyframeWithoutParameterSetsGetsThoseOfItsFormatDescription() throws {
        var packetizer = try Self.packetizer()
        let description = FormatDescription.h264(sps: [Self.sps], pps: [Self.pps])
        let idr = Self.unit([0x65], count: 50)
        let packets = try packetizer.packetize(Self.h264([idr], keyframe: true, description: description))
        #expect(packets.map(\.payload) == [Self.sps, Self.pps, idr])
        #expect(packets.map(\.startsKeyframe) == [true, false, false])
        // In band: sent as they come, not twice.
        let inBand = try packetizer.packetize(Self.h264([Self.sps, Self.pps, idr], keyframe: true))
        #expect(inBand.map(\.payload) == [Self.sps, Self.pps, idr])
        // A later keyframe without them, and no description on it: the remembered ones.
        let later = try packetizer.packetize(Self.h264([idr], pts: 1, keyframe: true))
        #expect(later.map(\.payload) == [Self.sps, Self.pps, idr])
        #expect(packetizer.formatDescription == description)
    }

    @Test func sequenceNumbersRunOnAcrossTheWrap() throws {
        var packetizer = try Self.packetizer(sequence: 65_534)
        var numbers: [UInt16] = []
        for index in 0..<2 {
            numbers += try packetizer.packetize(Self.h264([[0x41, 1], [0x41, 2]], pts: Double(index))).map(\.sequenceNumber)
        }
        #expect(numbers == [65_534, 65_535, 0, 1])
        #expect(packetizer.nextSequenceNumber == 2)
    }

    @Test func timestampsAreThePresentationTimeAt90kHzPlusTheBaseModulo2To32() throws {
        var packetizer = try Self.packetizer(base: UInt32.max - 999)
        let first = try packetizer.packetize(Self.h264([[0x41, 1]], pts: 0))
        let second = try packetizer.packetize(Self.h264([[0x41, 1]], pts: 1))
        #expect(first[0].timestamp == UInt32.max - 999)
        #expect(second[0].timestamp == 89_000)
        #expect(packetizer.timestamp(at: MediaTime(value: 3003, timescale: 90_000)) == 2003)
    }

    @Test func lengthPrefixedInputIsReadThroughTheSharedConversion() throws {
        var packetizer = try Self.packetizer()
        let idr = Self.unit([0x65], count: 20)
        let sample = try AVCC.sample(from: [try H264NALUnit(Self.sps), try H264NALUnit(Self.pps), try H264NALUnit(idr)], lengthSize: 4)
        let packet = EncodedPacket(
            mediaType: .video, codec: .h264, data: sample, pts: .zero, dts: .zero, duration: .zero, isKeyframe: true,
            formatDescription: nil, form: .avcc)
        #expect(try packetizer.packetize(packet).map(\.payload) == [Self.sps, Self.pps, idr])
    }

    @Test func h265FragmentsKeepLayerAndTemporalIDAndParameterSetsPrecedeIRAP() throws {
        var packetizer = try Self.packetizer(.h265)
        let vps: [UInt8] = [0x40, 0x01, 0x0C], sps: [UInt8] = [0x42, 0x01, 0x01], pps: [UInt8] = [0x44, 0x01, 0xC1]
        // IDR_W_RADL (19): header 0x26 0x01.
        let idr = Self.unit([0x26, 0x01], count: 150)
        let packet = EncodedPacket(
            mediaType: .video, codec: .h265, data: [0, 0, 1] + idr, pts: .zero, dts: .zero, duration: .zero, isKeyframe: true,
            formatDescription: .h265(vps: [vps], sps: [sps], pps: [pps]))
        let packets = try packetizer.packetize(packet)
        #expect(packets.count == 5)
        #expect(packets.prefix(3).map(\.payload) == [vps, sps, pps])
        #expect(packets[0].startsKeyframe && !packets[3].startsKeyframe)
        // Payload header: type 49, layer 0, TID 1; FU header S/E and type 19.
        #expect(packets[3].prefix == [0x62, 0x01, 0x93])
        #expect(packets[4].prefix == [0x62, 0x01, 0x53])
        #expect(packets[3].payloadCount == 100)
        #expect(idr.prefix(2) + packets.suffix(2).flatMap { Array($0.payload.dropFirst(3)) } == idr[...])
        #expect(packets.map(\.marker) == [false, false, false, false, true])
    }

    static let aacConfig: [UInt8] = [0x11, 0x90]  // AAC-LC, 48 kHz, stereo

    static func aac(_ bytes: [UInt8], pts: Double = 0) -> EncodedPacket {
        EncodedPacket(
            mediaType: .audio, codec: .aac, data: bytes, pts: MediaTime(seconds: pts), dts: MediaTime(seconds: pts),
            duration: MediaTime(value: 1024, timescale: 48_000), isKeyframe: true, formatDescription: nil)
    }

    @Test func aacGoesOneAccessUnitAPacketWithItsAUHeader() throws {
        var packetizer = try RTPPacketizer(
            codec: .aac, payloadType: 97, formatDescription: .aac(audioSpecificConfig: Self.aacConfig), maximumPayloadSize: 100,
            sequenceBase: 7, timestampBase: 0)
        #expect(packetizer.clockRate == 48_000)
        let frame = Self.unit([0x21], count: 96)
        let packets = try packetizer.packetize(Self.aac(frame, pts: 1))
        #expect(packets.count == 1)
        // AU-headers-length 16 bits; AU-size 96 (13 bits) and index 0 (3 bits): 96 << 3 = 0x0300.
        #expect(packets[0].payload == [0x00, 0x10, 0x03, 0x00] + frame)
        #expect(packets[0].marker && packets[0].startsKeyframe && packets[0].timestamp == 48_000)
    }

    @Test func aLargerAACUnitIsFragmentedWithTheWholeSizeInEachHeader() throws {
        var packetizer = try RTPPacketizer(
            codec: .aac, payloadType: 97, formatDescription: .aac(audioSpecificConfig: Self.aacConfig), maximumPayloadSize: 100)
        let frame = Self.unit([0x21], count: 97)
        let packets = try packetizer.packetize(Self.aac(frame))
        #expect(packets.count == 2)
        #expect(packets.allSatisfy { $0.prefix == [0x00, 0x10, 0x03, 0x08] })
        #expect(packets.map(\.marker) == [false, true])
        #expect(packets.map(\.startsKeyframe) == [true, false])
        #expect(packets.flatMap { Array($0.payload.dropFirst(4)) } == frame)
        #expect(packets[1].sequenceNumber == packets[0].sequenceNumber &+ 1)
        #expect(throws: BitstreamError.self) { try packetizer.packetize(Self.aac([UInt8](repeating: 1, count: 8192))) }
    }

    @Test func whatATrackCannotCarryIsRefused() throws {
        #expect(throws: BitstreamError.self) { try Self.packetizer(size: 15) }
        #expect(throws: BitstreamError.self) { try RTPPacketizer(codec: .aac, payloadType: 97, formatDescription: nil) }
        #expect(throws: BitstreamError.self) { try RTPPacketizer(codec: .opus, payloadType: 111, formatDescription: nil) }
        var packetizer = try Self.packetizer()
        #expect(throws: BitstreamError.self) { try packetizer.packetize(Self.aac([1, 2, 3])) }
    }

    /// The packetizer reads only our encoders' output, but malformed data must not crash it: random
    /// bytes with start codes sprinkled in, NAL units of one byte, truncated length prefixes.
    @Test func garbageYieldsPacketsOrErrorsNeverACrash() throws {
        var random = TestRandom(seed: 45)
        for codec in [MediaCodec.h264, .h265] {
            var packetizer = try Self.packetizer(codec, size: 16)
            for round in 0..<300 {
                var bytes = (0..<random.next(upTo: 200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                for _ in 0..<random.next(upTo: 6) where !bytes.isEmpty {
                    let at = random.next(upTo: bytes.count)
                    bytes.replaceSubrange(at..<min(at + 3, bytes.count), with: [0, 0, 1])
                }
                if round % 10 == 0 { bytes = [0, 0, 1, bytes.first ?? 0] }
                let packet = EncodedPacket(
                    mediaType: .video, codec: codec, data: bytes, pts: .zero, dts: .zero, duration: .zero, isKeyframe: round % 2 == 0,
                    formatDescription: nil, form: round % 3 == 0 ? .avcc : nil)
                if let packets = try? packetizer.packetize(packet) {
                    #expect(packets.allSatisfy { $0.payloadCount <= 16 && $0.payloadCount > 0 })
                }
            }
        }
    }
}

@Suite struct RTPClientRewriteTests {
    /// Shared packets numbered from `first`, each at timestamp 1000 × its index, keyframes where asked.
    static func shared(_ count: Int, first: UInt16 = 40_000, keyframes: Set<Int> = [0]) -> [RTPPacket] {
        (0..<count).map { index in
            RTPPacket(
                sequenceNumber: first &+ UInt16(index), timestamp: UInt32(index) * 1000, marker: true, payloadType: 96,
                startsAccessUnit: true, startsKeyframe: keyframes.contains(index), presentationTime: .zero, prefix: [0x7C],
                body: MediaBuffer(bytes: [1, 2, 3]), bodyRange: 0..<3)
        }
    }

    @Test func theHeaderCarriesTheViewersSSRCSequenceAndOffsetTimestamp() throws {
        var client = RTPClientRewrite(ssrc: 0xDEAD_BEEF, sequenceBase: 65_535, timestampOffset: UInt32.max)
        let packets = Self.shared(2)
        let first = client.header(for: packets[0])
        #expect(first.bytes == [0x80, 0xE0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xDE, 0xAD, 0xBE, 0xEF])
        let second = client.header(for: packets[1])
        #expect(second.sequenceNumber == 0 && second.timestamp == 999 && second.marker)
        // What goes out is the header and the shared payload, read back as sent.
        let wire = packets[1].bytes(with: second)
        #expect(RTPHeader(parsing: wire) == second)
        #expect(Array(wire.dropFirst(12)) == [0x7C, 1, 2, 3])
        #expect(client.packetCount == 2 && client.octetCount == 8)
    }

    /// A viewer that joins late and skips to the next keyframe sees consecutive numbers: its own
    /// counter, not the shared one plus an offset.
    @Test func sequenceNumbersStayConsecutiveAcrossASkipToAKeyframe() {
        let packets = Self.shared(20, first: 65_530, keyframes: [0, 12])
        var client = RTPClientRewrite(ssrc: 1, sequenceBase: 100, timestampOffset: 5)
        let sent = Array(packets[0..<4]) + Array(packets[12...])
        let headers = sent.map { client.header(for: $0) }
        #expect(headers.map(\.sequenceNumber) == Array(100..<(100 + UInt16(sent.count))))
        #expect(headers[4].timestamp == 12_005)
        #expect(client.packetCount == UInt32(sent.count))
    }

    @Test func twoViewersOfOnePacketShareItsPayloadAndDifferInTheirHeaders() {
        let packet = Self.shared(1)[0]
        var one = RTPClientRewrite(), two = RTPClientRewrite(ssrc: 2, sequenceBase: 0, timestampOffset: 0)
        let first = one.header(for: packet), second = two.header(for: packet)
        #expect(second.timestamp == packet.timestamp && second.ssrc == 2)
        #expect(first.ssrc == one.ssrc)
        packet.withPayloadParts { prefix, body in
            #expect(Array(prefix) == [0x7C] && Array(body) == [1, 2, 3])
        }
    }
}

@Suite struct RTCPSenderReportTests {
    @Test func theReportCarriesNTPTimeRTPTimeAndCounts() {
        // 2024-01-01T00:00:00.5Z: 1704067200.5 s Unix, + 2208988800 = 3913056000 s NTP, half a second.
        let wallClock = Date(timeIntervalSince1970: 1_704_067_200.5)
        var client = RTPClientRewrite(ssrc: 0x0102_0304, sequenceBase: 0, timestampOffset: 10)
        let packet = RTPClientRewriteTests.shared(1)[0]
        _ = client.header(for: packet)
        _ = client.header(for: packet)
        let report = RTCPSenderReport(for: client, sharedTimestamp: UInt32.max, wallClock: wallClock)
        #expect(report.ntpTimestamp == UInt64(3_913_056_000) << 32 | 0x8000_0000)
        #expect(report.rtpTimestamp == 9)
        let bytes = report.bytes
        #expect(bytes.count == 28)
        #expect(Array(bytes[0..<8]) == [0x80, 200, 0, 6, 1, 2, 3, 4])
        #expect(Array(bytes[8..<16]) == [0xE9, 0x3C, 0x7F, 0x00, 0x80, 0, 0, 0])
        #expect(Array(bytes[16..<28]) == [0, 0, 0, 9, 0, 0, 0, 2, 0, 0, 0, 8])
    }

    @Test func theCompoundPacketAddsAnSDESCNAMEPaddedToAWord() {
        let report = RTCPSenderReport(ssrc: 7, ntpTimestamp: 0, rtpTimestamp: 0, packetCount: 0, octetCount: 0)
        let compound = report.compound(cname: "onair")
        // SSRC (4), CNAME item (2 + 5), a zero to end the items: 12 bytes, 3 words; length 3.
        #expect(compound.count == 28 + 4 + 12)
        #expect(Array(compound[28..<32]) == [0x81, 202, 0, 3])
        #expect(Array(compound[32...]) == [0, 0, 0, 7, 1, 5] + Array("onair".utf8) + [0])
        // A name that fills the word exactly still gets a whole word of zeros after it.
        #expect(report.compound(cname: "ab").count % 4 == 0)
        #expect(Array(report.compound(cname: "ab").suffix(4)) == [0, 0, 0, 0])
    }
}

@Suite struct RTPSessionDescriptionTests {
    @Test func h264MediaLinesCarryThePacketizationModeProfileAndParameterSets() throws {
        let track = try RTPPacketizer(
            codec: .h264, payloadType: 96, formatDescription: .h264(sps: [RTPPacketizerTests.sps], pps: [RTPPacketizerTests.pps]))
        let lines = RTPSessionDescription.media(of: track, control: "stream=0")
        #expect(
            lines == [
                "m=video 0 RTP/AVP 96", "a=rtpmap:96 H264/90000",
                "a=fmtp:96 packetization-mode=1;profile-level-id=42c01e;sprop-parameter-sets=Z0LAHtoCgL8=,aM48gA==",
                "a=control:stream=0",
            ])
    }

    @Test func h265AndAACMediaLines() throws {
        let hevc = try RTPPacketizer(
            codec: .h265, payloadType: 96, formatDescription: .h265(vps: [[0x40, 1]], sps: [[0x42, 1]], pps: [[0x44, 1]]))
        #expect(RTPSessionDescription.media(of: hevc).last == "a=fmtp:96 sprop-vps=QAE=;sprop-sps=QgE=;sprop-pps=RAE=")
        let aac = try RTPPacketizer(
            codec: .aac, payloadType: 97, formatDescription: .aac(audioSpecificConfig: RTPPacketizerTests.aacConfig))
        #expect(
            RTPSessionDescription.media(of: aac, port: 5004) == [
                "m=audio 5004 RTP/AVP 97", "a=rtpmap:97 MPEG4-GENERIC/48000/2",
                "a=fmtp:97 streamtype=5;profile-level-id=1;mode=AAC-hbr;sizelength=13;indexlength=3;indexdeltalength=3;config=1190",
            ])
        let session = RTPSessionDescription.session(media: [RTPSessionDescription.media(of: aac)], address: "127.0.0.1", sessionID: 1)
        #expect(session.hasPrefix("v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=OnAir\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio"))
    }
}
#endif
