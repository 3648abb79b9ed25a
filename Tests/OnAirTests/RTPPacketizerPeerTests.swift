#if os(Linux)
import Foundation
import OnAirBitstream
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirServing

/// x264, x265 and AAC streams made by ffmpeg, packetized by `RTPPacketizer`, headed by one
/// viewer's `RTPClientRewrite` (random SSRC, sequence and timestamp offset) and decoded by
/// GStreamer's own depayloaders and decoders, whose caps come from our SDP media lines. The
/// packets reach GStreamer in a pcap file (`pcapparse`): no port to find, nothing lost, and the
/// decoders are flushed at the file's end, so every frame can be counted.
@Suite(.serialized) struct RTPPacketizerPeerTests {
    /// One viewer's packets on the wire: the shared packets with the viewer's headers, joining at
    /// the first keyframe; with `skipAfter` access units sent, it skips to the next keyframe.
    static func wire(_ packets: [RTPPacket], skipAfter: Int? = nil) -> [[UInt8]] {
        var client = RTPClientRewrite()
        var wire: [[UInt8]] = []
        var units = 0
        var skipping = true
        for packet in packets {
            if packet.startsAccessUnit {
                if let skipAfter, units == skipAfter { skipping = true }
                if skipping && packet.startsKeyframe { skipping = false }
                if !skipping { units += 1 }
            }
            if !skipping { wire.append(packet.bytes(with: client.header(for: packet))) }
        }
        return wire
    }

    /// The UDP datagrams `payloads` as a pcap file (Ethernet, IPv4 127.0.0.1:5000 → :5004, 1 ms apart).
    static func pcap(_ payloads: [[UInt8]]) -> Data {
        func le(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        func be(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(truncatingIfNeeded: value)] }
        var file: [UInt8] = le(0xA1B2_C3D4) + [2, 0, 4, 0] + le(0) + le(0) + le(65_535) + le(1)
        for (index, payload) in payloads.enumerated() {
            let udp = be(5000) + be(5004) + be(UInt16(8 + payload.count)) + [0, 0] + payload
            let ip: [UInt8] = [0x45, 0] + be(UInt16(20 + udp.count)) + [0, 0, 0x40, 0, 64, 17, 0, 0, 127, 0, 0, 1, 127, 0, 0, 1]
            let frame = [UInt8](repeating: 0, count: 12) + [0x08, 0x00] + ip + udp
            file += le(UInt32(index / 1000)) + le(UInt32(index % 1000 * 1000)) + le(UInt32(frame.count)) + le(UInt32(frame.count)) + frame
        }
        return Data(file)
    }

    /// RTP caps for `pcapparse` from a track's SDP media lines, as GStreamer's own SDP reading
    /// makes them: the rtpmap's name and rate, every fmtp parameter as a string.
    static func caps(fromSDP lines: [String]) throws -> String {
        let media = try #require(lines.first?.split(separator: " ").first?.dropFirst(2))
        let map = try #require(lines.first { $0.hasPrefix("a=rtpmap:") }?.split(separator: " ").last?.split(separator: "/"))
        var fields = ["media=(string)\(media)", "encoding-name=(string)\(map[0])", "clock-rate=(int)\(map[1])"]
        if let fmtp = lines.first(where: { $0.hasPrefix("a=fmtp:") }), let parameters = fmtp.split(separator: " ", maxSplits: 1).last {
            for parameter in parameters.split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                fields.append("\(pair[0])=(string)\"\(pair.count > 1 ? pair[1] : "")\"")
            }
        }
        return "application/x-rtp," + fields.joined(separator: ",")
    }

    /// Decodes the wire packets with `chain` (depayloader to raw) into a file; the bytes decoded.
    static func decode(_ wire: [[UInt8]], caps: String, chain: [String], in folder: URL) throws -> Int {
        let capture = folder.appendingPathComponent("rtp.pcap"), output = folder.appendingPathComponent("decoded.raw")
        try pcap(wire).write(to: capture)
        let result = try Tools.run(
            "gst-launch-1.0",
            ["-q", "filesrc", "location=\(capture.path)", "!", "pcapparse", "caps=\(caps)", "!"] + chain + [
                "!", "filesink", "location=\(output.path)",
            ], timeout: 120)
        #expect(result.status == 0, "gst-launch: \(result.stderr)")
        #expect(!result.stderr.contains("WARN") && !result.stderr.contains("ERROR"), "\(result.stderr)")
        return (try? Data(contentsOf: output).count) ?? 0
    }

    /// 2 s of x264 at 30 fps (B-frames, a keyframe a second, FU-A fragments for the large frames):
    /// the viewer joins at the first keyframe, sends 10 frames, skips to the next keyframe and
    /// sends the rest; GStreamer decodes every frame it was sent.
    @Test func gstreamerDecodesEveryH264FrameSentAcrossASkip() throws {
        let folder = try Tools.temporaryDirectory("rtp-h264")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("in.h264")
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "2", "-c:v", "libx264", "-g", "30",
            "-bsf:v", "h264_mp4toannexb", "-f", "h264", file.path,
        ])
        let accessUnits = H264AccessUnitSplitter.split(AnnexB.split(try [UInt8](Data(contentsOf: file))))
        #expect(accessUnits.count == 60)
        let keyframes = accessUnits.indices.filter { accessUnits[$0].isIDR }
        #expect(keyframes == [0, 30])
        var track = try RTPPacketizer(codec: .h264, payloadType: 96, formatDescription: nil)
        var packets: [RTPPacket] = []
        for (index, unit) in accessUnits.enumerated() {
            let packet = EncodedPacket(
                mediaType: .video, codec: .h264, data: AnnexB.join(accessUnit: unit.units),
                pts: MediaTime(value: Int64(index), timescale: 30),
                dts: MediaTime(value: Int64(index), timescale: 30), duration: MediaTime(value: 1, timescale: 30), isKeyframe: unit.isIDR,
                formatDescription: nil)
            packets += try track.packetize(packet)
        }
        #expect(packets.contains { !$0.prefix.isEmpty }, "no frame was fragmented")
        #expect(packets.allSatisfy { $0.payloadCount <= RTPPacketizer.defaultMaximumPayloadSize })
        let caps = try Self.caps(fromSDP: RTPSessionDescription.media(of: track))
        let bytes = try Self.decode(
            Self.wire(packets, skipAfter: 10), caps: caps,
            chain: ["rtph264depay", "!", "h264parse", "!", "avdec_h264", "!", "videoconvert", "!", "video/x-raw,format=I420"], in: folder)
        #expect(bytes == (10 + 30) * 320 * 240 * 3 / 2)
    }

    /// 1 s of x265 (a keyframe every 15 frames): every frame decodes from RFC 7798 packets.
    @Test func gstreamerDecodesEveryH265Frame() throws {
        let folder = try Tools.temporaryDirectory("rtp-h265")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("in.h265")
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "1", "-c:v", "libx265", "-x265-params", "keyint=15:log-level=error",
            "-f", "hevc", file.path,
        ])
        let accessUnits = HEVCByteStream.accessUnits(HEVCByteStream.split(try [UInt8](Data(contentsOf: file))))
        #expect(accessUnits.count == 30)
        var track = try RTPPacketizer(codec: .h265, payloadType: 96, formatDescription: nil, maximumPayloadSize: 600)
        var packets: [RTPPacket] = []
        for (index, units) in accessUnits.enumerated() {
            let time = MediaTime(value: Int64(index), timescale: 30)
            let packet = EncodedPacket(
                mediaType: .video, codec: .h265, data: HEVCByteStream.joinAnnexB(units), pts: time, dts: time,
                duration: MediaTime(value: 1, timescale: 30), isKeyframe: units.contains { $0.type.isIRAP }, formatDescription: nil)
            packets += try track.packetize(packet)
        }
        #expect(packets.contains { $0.prefix.count == 3 }, "no frame was fragmented")
        let caps = try Self.caps(fromSDP: RTPSessionDescription.media(of: track))
        let bytes = try Self.decode(
            Self.wire(packets), caps: caps,
            chain: ["rtph265depay", "!", "h265parse", "!", "avdec_h265", "!", "videoconvert", "!", "video/x-raw,format=I420"], in: folder)
        #expect(bytes == 30 * 320 * 240 * 3 / 2)
    }

    /// 1 s of AAC-LC at 48 kHz stereo over a 200-byte payload (most access units fragmented): the
    /// depayloader takes its config from our SDP's fmtp and every frame decodes.
    @Test func gstreamerDecodesEveryAACFrameFromOurSDPConfig() throws {
        let folder = try Tools.temporaryDirectory("rtp-aac")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("in.aac")
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "1", "-ac", "2", "-c:a", "aac", "-b:a", "128k", "-f", "adts",
            file.path,
        ])
        let frames = ADTS.parse(try [UInt8](Data(contentsOf: file))).frames
        #expect(frames.count > 40)
        let config = try #require(frames.first).header.audioSpecificConfig().serialized()
        var track = try RTPPacketizer(
            codec: .aac, payloadType: 97, formatDescription: .aac(audioSpecificConfig: config), maximumPayloadSize: 200)
        var packets: [RTPPacket] = []
        for (index, frame) in frames.enumerated() {
            let time = MediaTime(value: Int64(index) * 1024, timescale: 48_000)
            packets += try track.packetize(
                EncodedPacket(
                    mediaType: .audio, codec: .aac, data: frame.payload, pts: time, dts: time,
                    duration: MediaTime(value: 1024, timescale: 48_000),
                    isKeyframe: true, formatDescription: nil))
        }
        #expect(packets.count > frames.count, "no access unit was fragmented")
        #expect(packets[1].timestamp &- packets[0].timestamp == 0 || packets[1].timestamp &- packets[0].timestamp == 1024)
        let caps = try Self.caps(fromSDP: RTPSessionDescription.media(of: track))
        let bytes = try Self.decode(
            Self.wire(packets), caps: caps,
            chain: ["rtpmp4gdepay", "!", "aacparse", "!", "avdec_aac", "!", "audioconvert", "!", "audio/x-raw,format=S16LE,channels=2"],
            in: folder)
        #expect(bytes == frames.count * 1024 * 4)
    }
}
#endif
