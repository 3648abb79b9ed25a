#if os(Linux)
import Foundation
import OnAirBitstream
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirFFmpeg

/// H.265 as a setting of the encode: settings that decode as H.264 when the codec is missing,
/// Main 10 refused with the field named, hardware HEVC encoders tried first with reasons (injected:
/// none here), and libx265 giving IDR keyframes with VPS/SPS/PPS in band, closed GOPs and forced
/// keyframes where asked.
@Suite("HEVC encoder")
struct HEVCEncoderTests {
    static let small = VideoEncoderSettings(
        width: 320, height: 180, expectedFrameRate: 30, averageBitRate: 300_000,
        maxKeyFrameInterval: 30, maxKeyFrameIntervalDuration: 0, realTime: true, encoder: "auto", preset: "ultrafast",
        codec: .h265)

    @Test("settings: codec defaults to H.264 for old configs, Main 10 refused naming the field")
    func settings() throws {
        var old = try JSONSerialization.jsonObject(with: JSONEncoder().encode(VideoEncoderSettings())) as! [String: Any]
        old["codec"] = nil
        old["hevcProfileLevel"] = nil
        let decoded = try JSONDecoder().decode(VideoEncoderSettings.self, from: JSONSerialization.data(withJSONObject: old))
        #expect(decoded == VideoEncoderSettings())
        #expect(decoded.codec == .h264)
        let hevc = try JSONDecoder().decode(VideoEncoderSettings.self, from: JSONEncoder().encode(Self.small))
        #expect(hevc == Self.small && hevc.codec == .h265)
        #expect(throws: Never.self) { try Self.small.validate() }
        var main10 = Self.small
        main10.hevcProfileLevel = .main10AutoLevel
        #expect { try main10.validate() } throws: { ($0 as? SettingsError)?.field == "hevcProfileLevel" }
        var audio = Self.small
        audio.codec = .aac
        #expect { try audio.validate() } throws: { ($0 as? SettingsError)?.field == "codec" }
        #expect(HEVCProfileLevel(name: "main") == .mainAutoLevel && HEVCProfileLevel(name: "HEVC_Main10_AutoLevel") == .main10AutoLevel)
        #expect(HEVCProfileLevel.mainAutoLevel.description == "HEVC_Main_AutoLevel")
    }

    @Test("auto tries hevc_vaapi, hevc_nvenc, hevc_qsv, hevc_v4l2m2m first, then libx265: IDR, in-band VPS/SPS/PPS, forced keyframes")
    func libx265() async throws {
        let forced: Set<Int> = [7, 20]
        let result = try await onDedicatedThread { () throws -> ([EncodedPacket], EncoderSelection) in
            let encoder = try H264Encoder(settings: Self.small, hardware: .none)
            var packets: [EncodedPacket] = []
            for index in 0..<45 {
                let frame = testPattern(width: 320, height: 180, index: index)
                packets += try encoder.encode(frame, forceKeyFrame: forced.contains(index))
            }
            return (packets + (try encoder.flush()), encoder.selection)
        }
        let (packets, selection) = result
        #expect(selection.chosen == "libx265" && !selection.isHardware)
        #expect(selection.rejected.map(\.name) == ["hevc_vaapi", "hevc_nvenc", "hevc_qsv", "hevc_v4l2m2m"])
        #expect(packets.count == 45 && packets.allSatisfy { $0.codec == .h265 })
        let keyframes = packets.enumerated().filter(\.element.isKeyframe).map(\.offset)
        #expect(Set(keyframes).isSuperset(of: forced.union([0])))
        #expect(zip(keyframes, keyframes.dropFirst() + [45]).allSatisfy { $1 - $0 <= 30 })
        for index in keyframes {
            let units = HEVCByteStream.split(packets[index].payload.bytes)
            #expect(units.map(\.type).prefix(3) == [.vps, .sps, .pps])
            #expect(units.contains { $0.type.isIDR } && !units.contains { $0.type == .cra })
            if case .h265(let vps, let sps, let pps)? = packets[index].formatDescription {
                #expect(vps.count == 1 && sps.count == 1 && pps.count == 1)
            } else {
                Issue.record("keyframe \(index) without an H.265 format description")
            }
        }
        let file = try Tools.temporaryDirectory("onair-hevc").appendingPathComponent("clip.hevc")
        try Data(packets.flatMap(\.data)).write(to: file)
        let probe = try Tools.ffprobeJSON(["-select_streams", "v:0", "-show_streams", "-count_frames", "-f", "hevc", file.path])
        let stream = try #require((probe["streams"] as? [[String: Any]])?.first)
        #expect(stream["codec_name"] as? String == "hevc" && stream["profile"] as? String == "Main")
        #expect(stream["width"] as? Int == 320 && stream["height"] as? Int == 180)
        #expect(stream["nb_read_frames"] as? String == "45")
        let decode = try Tools.run("ffmpeg", ["-v", "error", "-xerror", "-i", file.path, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
    }

    @Test("a named hardware HEVC encoder this machine may not use is refused with the reason")
    func namedHardwareRefused() {
        var settings = Self.small
        settings.encoder = "hevc_vaapi"
        #expect {
            try H264Encoder(settings: settings, hardware: .none)
        } throws: { error in
            guard case EncoderError.unavailable(let name, let reason)? = error as? EncoderError else { return false }
            return name == "hevc_vaapi" && reason.contains("ONAIR_HARDWARE_ENCODERS")
        }
        settings.encoder = "libx264"
        #expect(throws: EncoderError.self) { try H264Encoder(settings: settings, hardware: .none) }
    }
}
#endif
