#if os(Linux)
import Foundation
import OnAirBitstream
import OnAirFFmpeg
import OnAirServing
import OnAirStreaming
import OnAirTestSupport
import Testing

@testable import OnAir

/// HLS in fragmented MP4, the form H.265 needs: the playlist model's rules (window, maps,
/// discontinuities, target duration), the multivariant playlist, RFC 6381 codec strings, and the
/// writer fed 5 s of H.265 and AAC encoded as fast as they go (no real time), judged by ffprobe and
/// ffmpeg reading the playlist.
@Suite("HLS fMP4 writer")
struct FragmentedHLSWriterTests {
    @Test("codec strings: Apple's hvc1 example, avc1 from an SPS, mp4a from an AudioSpecificConfig")
    func codecStrings() {
        let main = HEVCProfileTierLevel(
            profileIdc: 1, profileCompatibilityFlags: 0x6000_0000, constraintIndicatorFlags: 0xB000_0000_0000, levelIdc: 93)
        #expect(CodecString.hevc(main) == "hvc1.1.6.L93.B0")
        let main10High = HEVCProfileTierLevel(
            highTier: true, profileIdc: 2, profileCompatibilityFlags: 0x2000_0000, constraintIndicatorFlags: 0x9000_0000_0000,
            levelIdc: 153)
        #expect(CodecString.hevc(main10High) == "hvc1.2.4.H153.90")
        let spaced = HEVCProfileTierLevel(profileSpace: 1, profileIdc: 1, profileCompatibilityFlags: 0x4000_0000, levelIdc: 60)
        #expect(CodecString.hevc(spaced, tag: "hev1") == "hev1.A1.2.L60")
        #expect(CodecString.avc(sps: [0x67, 0x64, 0x00, 0x1F, 0xAC]) == "avc1.64001f")
        #expect(CodecString.avc(sps: [0x67, 0x42]) == nil)
        #expect(CodecString.aac(audioSpecificConfig: [0x12, 0x10]) == "mp4a.40.2")
        #expect(CodecString.of(.aac(audioSpecificConfig: [0x12, 0x10])) == "mp4a.40.2")
    }

    @Test("media playlist: sliding window, EXT-X-MAP before its segments, discontinuity, target duration")
    func mediaPlaylist() {
        var playlist = HLSMediaPlaylist(targetDuration: 2, windowSize: 3)
        var gone: [String] = []
        for index in 0..<4 {
            gone += playlist.append(.init(uri: "segment_\(index).m4s", duration: index == 2 ? 2.6 : 2, map: "init.mp4")).map(\.uri)
        }
        gone += playlist.append(.init(uri: "segment_4.m4s", duration: 2, map: "init_1.mp4", discontinuity: true)).map(\.uri)
        #expect(gone == ["segment_0.m4s", "segment_1.m4s"])
        #expect(playlist.mediaSequence == 2 && playlist.discontinuitySequence == 0)
        let lines = playlist.text.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:3", "#EXT-X-MEDIA-SEQUENCE:2", "#EXT-X-INDEPENDENT-SEGMENTS",
                "#EXT-X-MAP:URI=\"init.mp4\"", "#EXTINF:2.600000,", "segment_2.m4s", "#EXTINF:2.000000,", "segment_3.m4s",
                "#EXT-X-DISCONTINUITY", "#EXT-X-MAP:URI=\"init_1.mp4\"", "#EXTINF:2.000000,", "segment_4.m4s",
            ])
        for index in 5..<8 { playlist.append(.init(uri: "segment_\(index).m4s", duration: 2, map: "init_1.mp4")) }
        playlist.ended = true
        #expect(playlist.discontinuitySequence == 1 && playlist.mediaSequence == 5)
        #expect(playlist.text.contains("#EXT-X-DISCONTINUITY-SEQUENCE:1\n") && playlist.text.hasSuffix("#EXT-X-ENDLIST\n"))
        #expect(playlist.targetDurationTag == 2)
    }

    @Test("multivariant playlist: BANDWIDTH, CODECS, RESOLUTION, FRAME-RATE per encode")
    func multivariant() {
        let text = HLSMultivariantPlaylist(variants: [
            .init(uri: "live.m3u8", bandwidth: 2_750_000, codecs: ["hvc1.1.6.L93.B0", "mp4a.40.2"], resolution: (640, 360), frameRate: 30),
            .init(uri: "sub.m3u8", bandwidth: 0, codecs: ["avc1.42c00d"], resolution: nil, frameRate: nil),
        ]).text
        #expect(
            text == """
                #EXTM3U
                #EXT-X-VERSION:7
                #EXT-X-INDEPENDENT-SEGMENTS
                #EXT-X-STREAM-INF:BANDWIDTH=2750000,CODECS="hvc1.1.6.L93.B0,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=30.000
                live.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=1,CODECS="avc1.42c00d"
                sub.m3u8

                """)
    }

    /// `frames` of synthetic `width`x96 video at 30 fps (H.265 unless `codec` says, a keyframe every
    /// `keyFrameInterval` frames, H.264 with no reordering) and stereo AAC, in time order.
    static func packets(frames: Int, codec: MediaCodec = .h265, keyFrameInterval: Int = 15, width: Int = 160) throws -> [EncodedPacket] {
        let video = try SyntheticVideo(width: width, height: 96, frameRate: 30)
        var settings = VideoEncoderSettings(
            width: width, height: 96, averageBitRate: 200_000, maxKeyFrameInterval: keyFrameInterval,
            maxKeyFrameIntervalDuration: Double(keyFrameInterval) / 30, encoder: codec == .h265 ? "libx265" : "libx264",
            preset: "ultrafast", codec: codec)
        if codec == .h264 { settings.allowFrameReordering = false }
        let encoder = try H264Encoder(settings: settings, hardware: .none)
        var packets: [EncodedPacket] = []
        for frame in SyntheticTestMedia.frames(video, count: frames) { packets += try encoder.encode(frame) }
        packets += try encoder.flush()
        let audio = try SyntheticAudio(sampleRate: 48_000, channels: 2)
        let aac = try AACEncoder(settings: AudioEncoderSettings(sampleRate: 48_000, channels: 2))
        for start in stride(from: Int64(0), to: Int64(48_000 * frames / 30), by: 1024) {
            packets += try aac.encode(audio.samples(startingAt: start, count: 1024))
        }
        packets += try aac.flush()
        return packets.enumerated().sorted { ($0.element.dts.seconds, $0.offset) < ($1.element.dts.seconds, $1.offset) }
            .map(\.element)
    }

    @Test("writer: init.mp4 with hvc1/hvcC, 1 s segments of moof+mdat from keyframes, old files removed; ffmpeg decodes every frame")
    func writer() throws {
        let dir = try Tools.temporaryDirectory("fmp4-hls")
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = 150
        let packets = try Self.packets(frames: frames)
        let playlist = dir.appendingPathComponent("stream.m3u8")
        let writer = try FragmentedHLSWriter(playlist: playlist.path, streams: [.video, .audio], segmentDuration: 1, windowSize: 0)
        let variant = ServeHLSVariant(segmentDuration: 1, bitRate: 1)
        for packet in packets {
            try writer.write(packet)
            try variant.write(packet)
        }
        try writer.finish()
        let text = try String(contentsOf: playlist, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["#EXTM3U", "#EXT-X-VERSION:7"] && lines.contains("#EXT-X-MAP:URI=\"init.mp4\""), "\(text)")
        #expect(lines.last == "#EXT-X-ENDLIST", "\(text)")
        let durations = lines.filter { $0.hasPrefix("#EXTINF:") }.compactMap { Double($0.dropFirst(8).dropLast()) }
        #expect(durations.count == 5 && durations.dropLast().allSatisfy { abs($0 - 1) < 0.01 }, "\(durations)")
        #expect(abs(durations.reduce(0, +) - Double(frames) / 30) < 0.05, "\(durations)")
        let initSection = Array(try Data(contentsOf: dir.appendingPathComponent("init.mp4")))
        #expect(ServeMuxSinkTests.boxTypes(initSection) == ["ftyp", "moov"])
        for index in 0..<durations.count {
            let segment = Array(try Data(contentsOf: dir.appendingPathComponent("segment_\(index).m4s")))
            let boxes = ServeMuxSinkTests.boxTypes(segment)
            #expect(boxes.first == "moof" && Set(boxes) == ["moof", "mdat"], "segment \(index): \(boxes)")
        }
        // The codec string from the init section's hvcC, read here without the bitstream readers.
        let hvcC = try #require(Self.payload(of: "hvcC", in: initSection))
        let flags = hvcC[2..<6].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let binary = String(flags, radix: 2)
        let reversed = UInt32(String((String(repeating: "0", count: 32 - binary.count) + binary).reversed()), radix: 2)!
        var constraints = Array(hvcC[6..<12])
        while constraints.last == 0 { constraints.removeLast() }
        let expected =
            "hvc1.\(hvcC[1] & 0x1F).\(String(reversed, radix: 16, uppercase: true)).\(hvcC[1] & 0x20 == 0 ? "L" : "H")\(hvcC[12])"
            + constraints.map { "." + String($0, radix: 16, uppercase: true) }.joined()
        #expect(Self.payload(of: "hvc1", in: initSection) != nil && Self.payload(of: "hev1", in: initSection) == nil)
        let measured = try #require(variant.variant(uri: "live.m3u8"))
        #expect(measured.codecs == [expected, "mp4a.40.2"] && expected.hasPrefix("hvc1.1.6.L"), "\(measured.codecs) \(expected)")
        #expect(measured.resolution?.width == 160 && measured.resolution?.height == 96)
        #expect(abs((measured.frameRate ?? 0) - 30) < 0.5 && measured.bandwidth > 50_000, "\(measured)")
        // ffprobe and ffmpeg read the playlist as a player would.
        let probe = try Tools.ffprobeJSON(["-show_streams", "-select_streams", "v:0", "-count_frames", playlist.path])
        let stream = try #require((probe["streams"] as? [[String: Any]])?.first)
        #expect(stream["codec_name"] as? String == "hevc" && stream["profile"] as? String == "Main", "\(stream)")
        #expect(stream["width"] as? Int == 160 && stream["height"] as? Int == 96, "\(stream)")
        #expect(stream["nb_read_frames"] as? String == "\(frames)", "\(stream)")
        let decode = try Tools.run("ffmpeg", ["-v", "error", "-i", playlist.path, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
    }

    @Test("writer: a window of 2 keeps two segments listed and the files of one window more")
    func window() throws {
        let dir = try Tools.temporaryDirectory("fmp4-hls-window")
        defer { try? FileManager.default.removeItem(at: dir) }
        let playlist = dir.appendingPathComponent("stream.m3u8")
        let writer = try FragmentedHLSWriter(playlist: playlist.path, streams: [.video, .audio], segmentDuration: 0.5, windowSize: 2)
        for packet in try Self.packets(frames: 150) { try writer.write(packet) }
        let listed = try String(contentsOf: playlist, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("segment_") }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("segment_") }.sorted()
        #expect(listed == ["segment_7.m4s", "segment_8.m4s"], "\(listed)")
        #expect(files == ["segment_5.m4s", "segment_6.m4s", "segment_7.m4s", "segment_8.m4s"], "\(files)")
    }

    /// The payload of the first box of `type` anywhere in `bytes` (found by its type; test media only).
    static func payload(of type: String, in bytes: [UInt8]) -> [UInt8]? {
        let pattern = Array(type.utf8)
        guard bytes.count >= 8 else { return nil }
        for index in 4...(bytes.count - 4) where Array(bytes[index..<index + 4]) == pattern {
            let size = bytes[index - 4..<index].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8, index - 4 + size <= bytes.count else { continue }
            // Sample entries (hvc1) have 78 bytes of fields before their boxes; hvcC's payload follows its header.
            return Array(bytes[(index + 4)..<(index - 4 + size)])
        }
        return nil
    }
}
#endif
