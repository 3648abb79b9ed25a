#if os(Linux)
import Foundation
import OnAirBitstream
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirFFmpeg

@Suite struct H264EncoderTests {
    static let small = VideoEncoderSettings(
        width: 160, height: 120, expectedFrameRate: 30, averageBitRate: 300_000,
        maxKeyFrameInterval: 30, maxKeyFrameIntervalDuration: 0,
        realTime: false, encoder: "libx264", preset: "ultrafast")

    @Test(arguments: [H264Profile.baseline, .main, .high], [H264Level.l3, .l31, .l4, .l41, nil])
    func spsCarriesProfileAndLevel(profile: H264Profile, level: H264Level?) async throws {
        var settings = Self.small
        settings.profileLevel = H264ProfileLevel(profile, level)
        let clip = try await encodeClip(settings, frames: 3)
        let stream = try probeVideo(clip.file).stream
        let expectedProfile = ["baseline": "Constrained Baseline", "main": "Main", "high": "High"][profile.rawValue]
        #expect(stream["profile"] as? String == expectedProfile)
        let expectedLevel = level ?? H264Level.smallest(fitting: settings)!
        #expect(stream["level"] as? Int == expectedLevel.levelIDC)
        #expect(clip.level == expectedLevel)
        // 160×120@30 (80 MBs, 2400 MB/s) fits 1.1 by size; the 450 kbit/s cap needs 1.2 (High ×1.25) or 1.3.
        if level == nil { #expect(expectedLevel == (profile == .high ? .l12 : .l13)) }
        #expect(clip.packets.first?.isKeyframe == true)
        #expect(clip.packets.first?.formatDescription?.sps.first?.first.map { $0 & 0x1F } == 7)
    }

    @Test(arguments: [(30, 0.0, 30), (100, 0.5, 15), (12, 1.0, 12)])
    func maxKeyFrameIntervalHolds(frames interval: Int, duration: Double, expected: Int) async throws {
        var settings = Self.small
        settings.maxKeyFrameInterval = interval
        settings.maxKeyFrameIntervalDuration = duration
        #expect(settings.effectiveKeyFrameInterval == expected)
        let clip = try await encodeClip(settings, frames: 75)
        let frames = try probeVideo(clip.file, frames: true).frames
        #expect(frames.count == 75)
        let keys = frames.enumerated().filter { ($0.element["key_frame"] as? Int) == 1 }.map(\.offset)
        #expect(keys.first == 0)
        for (a, b) in zip(keys, keys.dropFirst()) { #expect(b - a <= expected, "keyframes \(keys)") }
        #expect((keys.last ?? 0) >= 75 - expected)
        #expect(clip.packets.filter(\.isKeyframe).count == keys.count)
        for packet in clip.packets where packet.isKeyframe { #expect(packet.formatDescription != nil) }
    }

    @Test func forcedKeyFramesLandOnExactFrames() async throws {
        var settings = Self.small
        settings.maxKeyFrameInterval = 300
        settings.maxKeyFrameIntervalDuration = 0
        let forced: Set<Int> = [7, 20, 33]
        let clip = try await encodeClip(settings, frames: 45, forced: forced)
        let frames = try probeVideo(clip.file, frames: true).frames
        let keys = Set(frames.enumerated().filter { ($0.element["key_frame"] as? Int) == 1 }.map(\.offset))
        #expect(keys.isSuperset(of: forced.union([0])))
        for index in forced { #expect(frames[index]["pict_type"] as? String == "I") }
        // Each forced keyframe's packet carries SPS/PPS in front and the frame's own timestamp.
        let keyPackets = clip.packets.filter(\.isKeyframe)
        let keyTimes = Set(keyPackets.map { Int(($0.pts.seconds * 30).rounded()) })
        #expect(keyTimes.isSuperset(of: forced))
        for packet in keyPackets {
            let types = AnnexB.split(packet.data).map { Int($0.type.rawValue) }
            #expect(types.firstIndex(of: 7)! < types.firstIndex(of: 5)!)
        }
    }

    @Test(arguments: [(H264Profile.main, true), (.high, true), (.high, false), (.baseline, false)])
    func frameReordering(profile: H264Profile, allow: Bool) async throws {
        var settings = Self.small
        settings.profileLevel = .auto(profile)
        settings.allowFrameReordering = allow
        let clip = try await encodeClip(settings, frames: 40)
        let frames = try probeVideo(clip.file, frames: true).frames
        let bFrames = frames.filter { $0["pict_type"] as? String == "B" }.count
        if allow { #expect(bFrames > 0) } else { #expect(bFrames == 0) }
        let reordered = clip.packets.contains { $0.dts < $0.pts }
        #expect(reordered == allow)
    }

    @Test func realTimeEmitsEachFramesPacketBeforeTheNextFrame() async throws {
        var settings = Self.small
        settings.realTime = true
        settings.allowFrameReordering = true  // realTime wins
        settings.preset = "veryfast"
        let clip = try await encodeClip(settings, frames: 30)
        #expect(clip.packetsPerCall == Array(repeating: 1, count: 30))
        for (index, packet) in clip.packets.prefix(30).enumerated() {
            #expect(Int((packet.pts.seconds * 30).rounded()) == index)
        }
        let frames = try probeVideo(clip.file, frames: true).frames
        #expect(frames.count == 30)
        #expect(!frames.contains { $0["pict_type"] as? String == "B" })
    }

    @Test func baselineUsesCAVLC() async throws {
        var settings = Self.small
        settings.profileLevel = .auto(.baseline)
        let clip = try await encodeClip(settings, frames: 2)
        // entropy_coding_mode_flag is the first bit after pic/seq parameter set ids (ue(v)) in the PPS;
        // for x264's ids (0,0) the first byte after the header is 0b11x…: x is the CABAC flag.
        let pps = try #require(clip.packets.first?.formatDescription?.pps.first)
        #expect(pps[1] & 0x20 == 0)
        var high = settings
        high.profileLevel = .auto(.high)
        let cabac = try await encodeClip(high, frames: 2)
        #expect(try #require(cabac.packets.first?.formatDescription?.pps.first)[1] & 0x20 != 0)
    }

    @Test func autoFallsBackToLibx264OnAMachineWithoutHardwareEncoders() async throws {
        var settings = Self.small
        settings.encoder = "auto"
        // Injected: this machine has no hardware encoder, whatever it really has.
        let clip = try await encodeClip(settings, frames: 2, hardware: .none)
        #expect(clip.selection.chosen == "libx264")
        #expect(clip.selection.rejected.map(\.name) == EncoderSelection.hardwareCandidates)
        #expect(clip.selection.rejected.allSatisfy { $0.reason.contains("turned off") }, "\(clip.selection)")
    }

    @Test func autoSaysWhyEachHardwareEncoderItTriedFailed() async throws {
        var settings = Self.small
        settings.encoder = "auto"
        let clip = try await encodeClip(settings, frames: 2, hardware: .all)
        // Hardware where this machine has some, libx264 otherwise; every candidate before it says why not.
        #expect(clip.selection.chosen == "libx264" || EncoderSelection.hardwareCandidates.contains(clip.selection.chosen))
        let tried = EncoderSelection.hardwareCandidates.prefix { $0 != clip.selection.chosen }
        #expect(clip.selection.rejected.map(\.name) == Array(tried))
        for (name, reason) in clip.selection.rejected {
            #expect(!reason.isEmpty, "\(name)")
            #expect(!reason.contains("av_opt_set"), "\(name) failed on our option mapping, not on the hardware: \(reason)")
        }
        let vaapi = clip.selection.rejected.first { $0.name == "h264_vaapi" }?.reason
        if HardwareFrames.renderNode() == nil { #expect(vaapi?.contains("renderD") == true) }
        if clip.selection.chosen != "h264_videotoolbox" {
            #expect(clip.selection.rejected.first?.reason.contains("not in this FFmpeg build") == true)
        }
    }

    @Test func namingAnEncoderThatCannotOpenIsAnError() async throws {
        var settings = Self.small
        settings.encoder = "h264_nvenc"
        // Injected: no NVENC here, whatever this machine has.
        await #expect(throws: EncoderError.self) { _ = try await encodeClip(settings, frames: 1, hardware: .none) }
        let nvenc = settings
        do {
            try await onDedicatedThread { _ = try H264Encoder(settings: nvenc, hardware: .none) }
            Issue.record("h264_nvenc opened")
        } catch let error as EncoderError {
            guard case .unavailable(let name, let reason) = error else { Issue.record("\(error)"); return }
            #expect(name == "h264_nvenc")
            #expect(!reason.isEmpty)
        }
        settings.encoder = "no_such_encoder"
        let missing = settings
        await #expect(throws: EncoderError.self) { try await onDedicatedThread { _ = try H264Encoder(settings: missing) } }
    }

    @Test func liveBitRateChangeChangesOutputRate() async throws {
        var settings = Self.small
        settings.width = 320
        settings.height = 240
        settings.averageBitRate = 1_200_000
        settings.dataRateLimits = [.relative(to: 1_200_000)]
        settings.realTime = true
        settings.preset = "veryfast"
        let clip = try await encodeClip(
            settings, frames: 120,
            rateChange: (60, 150_000, [.relative(to: 150_000)]))
        let first = clip.packets.filter { $0.pts.seconds < 2 }.reduce(0) { $0 + $1.data.count }
        let second = clip.packets.filter { $0.pts.seconds >= 2.5 }.reduce(0) { $0 + $1.data.count }
        let firstRate = Double(first * 8) / 2, secondRate = Double(second * 8) / 1.5
        #expect(secondRate < firstRate / 3, "before \(firstRate) bit/s, after \(secondRate) bit/s")
        #expect(try probeVideo(clip.file, frames: true).frames.count == 120)
    }

    @Test func convertsOtherPixelFormats() async throws {
        let settings = Self.small
        let packets = try await onDedicatedThread { () -> [EncodedPacket] in
            let encoder = try H264Encoder(settings: settings)
            var frame = VideoFrame(width: 200, height: 150, pixelFormat: .bgra, pts: .zero)
            for i in stride(from: 0, to: frame.planes[0].bytes.count, by: 4) { frame.planes[0].bytes[i + 2] = 200 }
            var out = try encoder.encode(frame)
            var short = frame
            short.planes[0].bytes.removeLast(10)
            #expect(throws: EncoderError.self) { try encoder.encode(short) }
            out += try encoder.flush()
            return out
        }
        #expect(packets.count == 1)
    }
}
#endif
