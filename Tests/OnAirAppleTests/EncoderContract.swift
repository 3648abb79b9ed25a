import Foundation
import OnAirBitstream
import OnAirCore
import OnAirLive
import OnAirTestSupport
import Testing

/// What every backend's encoders must do, written over the protocols so that the same checks run
/// on libavcodec here (`FFmpegContractTests`) and on VideoToolbox/AudioToolbox on a Mac
/// (`AppleOnlyTests`): keyframes at most `maxKeyFrameInterval` apart, forced keyframes where asked,
/// the average bitrate within a tolerance, monotonic timestamps, AAC packets covering the input.
enum EncoderContract {
    /// Encodes `count` synthetic frames (keyframes forced at `forced`) and returns every packet.
    static func encode(
        _ encoder: any VideoEncoding, count: Int, forced: Set<Int> = [], width: Int = 320, height: Int = 240, fps: Int = 30
    ) throws -> [EncodedPacket] {
        let source = try SyntheticVideo(width: width, height: height, frameRate: Double(fps))
        var packets: [EncodedPacket] = []
        for index in 0..<count {
            let pts = MediaTime(value: Int64(index), timescale: Int32(fps))
            packets += try encoder.encode(source.frame(index: index, captureTime: pts), forceKeyFrame: forced.contains(index))
        }
        return packets + (try encoder.flush())
    }

    /// The frame indexes of the keyframes among `packets` (by their pts at `fps`).
    static func keyFrameIndexes(_ packets: [EncodedPacket], fps: Int = 30) -> [Int] {
        packets.filter(\.isKeyframe).map { Int(($0.pts.seconds * Double(fps)).rounded()) }
    }

    /// Keyframes: the first packet is one, and no two are more than `interval` frames apart.
    static func checkKeyFrameInterval(_ make: (VideoEncoderSettings) throws -> any VideoEncoding) throws {
        let settings = VideoEncoderSettings(
            width: 320, height: 240, expectedFrameRate: 30, averageBitRate: 400_000, maxKeyFrameInterval: 10,
            maxKeyFrameIntervalDuration: 0, profileLevel: .auto(.baseline))
        let packets = try encode(try make(settings), count: 45)
        #expect(packets.count == 45)
        #expect(packets.first?.isKeyframe == true)
        let keys = keyFrameIndexes(packets)
        let gaps = zip(keys.dropFirst(), keys).map { $0 - $1 }
        #expect(keys.first == 0 && (45 - 1 - (keys.last ?? 0)) < 10 && gaps.allSatisfy { $0 <= 10 }, "keyframes at \(keys)")
        for packet in packets where packet.isKeyframe {
            let types = AnnexB.split(packet.data).map(\.type)
            #expect(types.contains(.sps) && types.contains(.pps) && types.contains(.idr), "parameter sets before each IDR")
        }
    }

    /// Forced keyframes come out as IDRs at the frames asked for.
    static func checkForcedKeyFrames(_ make: (VideoEncoderSettings) throws -> any VideoEncoding) throws {
        let settings = VideoEncoderSettings(
            width: 320, height: 240, expectedFrameRate: 30, averageBitRate: 400_000, maxKeyFrameInterval: 300,
            maxKeyFrameIntervalDuration: 0, profileLevel: .auto(.baseline))
        let keys = Set(keyFrameIndexes(try encode(try make(settings), count: 30, forced: [7, 19])))
        #expect(keys.isSuperset(of: [0, 7, 19]), "keyframes at \(keys.sorted())")
    }

    /// Timestamps: dts strictly increasing, pts never before dts, no duplicate pts.
    static func checkMonotonicTimestamps(_ make: (VideoEncoderSettings) throws -> any VideoEncoding) throws {
        let packets = try encode(try make(VideoEncoderSettings(width: 320, height: 240, averageBitRate: 400_000)), count: 40)
        #expect(zip(packets.dropFirst(), packets).allSatisfy { $0.dts > $1.dts }, "dts strictly increasing")
        #expect(packets.allSatisfy { $0.pts >= $0.dts })
        #expect(Set(packets.map(\.pts.seconds)).count == packets.count)
    }

    /// The bytes over `seconds` of synthetic video are within `tolerance` (a fraction) of the average bitrate.
    static func checkBitRate(
        _ make: (VideoEncoderSettings) throws -> any VideoEncoding, bitRate: Int = 600_000, seconds: Int = 4,
        tolerance: Double = 0.35
    ) throws -> Double {
        let settings = VideoEncoderSettings(
            width: 640, height: 360, expectedFrameRate: 30, averageBitRate: bitRate, maxKeyFrameInterval: 60,
            profileLevel: .auto(.high))
        let packets = try encode(try make(settings), count: 30 * seconds, width: 640, height: 360)
        let measured = Double(packets.reduce(0) { $0 + $1.byteCount } * 8) / Double(seconds)
        let ratio = measured / Double(bitRate)
        #expect(abs(ratio - 1) <= tolerance, "measured \(Int(measured)) bits/s for \(bitRate): ratio \(ratio)")
        return ratio
    }

    /// The packets of one second (and 777 samples) of synthetic stereo sound at 48 kHz, fed in
    /// uneven chunks, and the number of samples fed.
    static func encodeAAC(_ make: (AudioEncoderSettings) throws -> any AudioEncoding) throws -> (packets: [EncodedPacket], samples: Int) {
        let settings = AudioEncoderSettings(sampleRate: 48_000, channels: 2, bitRate: 128_000)
        let encoder = try make(settings)
        let audio = try SyntheticAudio(sampleRate: 48_000, channels: 2)
        let total = 48_000 + 777
        var packets: [EncodedPacket] = []
        var offset = 0
        for chunk in [480, 1000, 17, 4096].cycled(until: total) {
            var buffer = audio.samples(startingAt: Int64(offset), count: chunk)
            buffer.pts = MediaTime(value: Int64(offset), timescale: 48_000)
            packets += try encoder.encode(buffer)
            offset += chunk
        }
        packets += try encoder.flush()
        return (packets, total)
    }

    /// AAC: every packet but the last (which may be trimmed) is one 1024-sample frame on an
    /// increasing timeline.
    static func checkAACDuration(_ make: (AudioEncoderSettings) throws -> any AudioEncoding) throws {
        let packets = try encodeAAC(make).packets
        let frame = MediaTime(value: 1024, timescale: 48_000)
        let durations = packets.map(\.duration)
        #expect(durations.dropLast().allSatisfy { $0 == frame }, "durations \(Set(durations.map(\.description)))")
        #expect(durations.last.map { $0 > .zero && $0 <= frame } == true)
        #expect(zip(packets.dropFirst(), packets).allSatisfy { $0.pts > $1.pts })
    }

    /// AAC: the packets, wrapped in ADTS and decoded by the ffmpeg command (a test that calls
    /// this is enabled only where it is installed), hold at least the input's samples and less
    /// than one frame plus the encoder's priming more.
    static func checkAACDecodes(_ make: (AudioEncoderSettings) throws -> any AudioEncoding) throws {
        let (packets, total) = try encodeAAC(make)
        let config = try AudioSpecificConfig(parsing: try #require(packets.first?.formatDescription).audioSpecificConfig)
        let adts = try packets.flatMap { try ADTS.wrap($0.data, config: config) }
        let decoded = try Tools.run(
            "ffmpeg", ["-hide_banner", "-v", "error", "-f", "aac", "-i", "-", "-f", "s16le", "-ac", "2", "-ar", "48000", "-"],
            stdin: Data(adts))
        #expect(decoded.status == 0, "ffmpeg: \(decoded.stderr)")
        let samples = decoded.stdout.count / 4
        #expect(samples >= total && samples < total + 1024 + 2112, "decoded \(samples) samples for \(total) in")
    }
}

extension Array where Element == Int {
    /// The chunk sizes repeated until they add up to `total` (the last one cut to fit).
    func cycled(until total: Int) -> [Int] {
        var sizes: [Int] = []
        var sum = 0
        while sum < total {
            let next = Swift.min(self[sizes.count % count], total - sum)
            sizes.append(next)
            sum += next
        }
        return sizes
    }
}
