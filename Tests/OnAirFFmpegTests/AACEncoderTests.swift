#if os(Linux)
import Foundation
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirFFmpeg

/// A 7-byte ADTS header (no CRC) for one raw AAC-LC frame of `length` bytes.
func adtsHeader(length: Int, sampleRate: Int, channels: Int) -> [UInt8] {
    let rates = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000]
    let index = UInt8(rates.firstIndex(of: sampleRate)!)
    let configuration = UInt8(channels == 8 ? 7 : channels)
    let total = length + 7
    return [
        0xFF, 0xF1, (1 << 6) | (index << 2) | (configuration >> 2),
        ((configuration & 3) << 6) | UInt8(total >> 11), UInt8((total >> 3) & 0xFF),
        UInt8((total & 7) << 5) | 0x1F, 0xFC,
    ]
}

/// `seconds` of a different sine per channel in the requested layout, cut into `chunk`-sample buffers.
func sineBuffers(
    rate: Int, channels: Int, format: PCMSampleFormat, planar: Bool, seconds: Double,
    chunk: Int, start: MediaTime
) -> [PCMBuffer] {
    let total = Int(Double(rate) * seconds)
    var buffers: [PCMBuffer] = []
    var offset = 0
    while offset < total {
        let count = min(chunk, total - offset)
        var planes = [[UInt8]](repeating: [], count: planar ? channels : 1)
        for i in 0..<count {
            for ch in 0..<channels {
                let value = 0.4 * sin(2 * Double.pi * Double(220 * (ch + 1)) * Double(offset + i) / Double(rate))
                let bytes: [UInt8]
                switch format {
                case .s16: bytes = withUnsafeBytes(of: Int16(value * 32_000).littleEndian, Array.init)
                case .s32: bytes = withUnsafeBytes(of: Int32(value * 2_000_000_000).littleEndian, Array.init)
                case .f32: bytes = withUnsafeBytes(of: Float(value).bitPattern.littleEndian, Array.init)
                }
                planes[planar ? ch : 0] += bytes
            }
        }
        let pts = MediaTime(value: start.converted(to: Int32(rate)).value + Int64(offset), timescale: Int32(rate))
        buffers.append(
            PCMBuffer(
                sampleFormat: format, isPlanar: planar, sampleRate: rate, channels: channels,
                frameCount: count, planes: planes, pts: pts))
        offset += count
    }
    return buffers
}

/// Encodes buffers, writes an ADTS file and returns the packets, the file and the priming.
func encodeAAC(_ settings: AudioEncoderSettings, _ buffers: [PCMBuffer]) async throws -> ([EncodedPacket], URL, Int) {
    try await onDedicatedThread {
        let encoder = try AACEncoder(settings: settings)
        var packets: [EncodedPacket] = []
        for buffer in buffers { packets += try encoder.encode(buffer) }
        packets += try encoder.flush()
        let file = try Tools.temporaryDirectory("onair-aac").appendingPathComponent("out.aac")
        let bytes = packets.flatMap {
            adtsHeader(length: $0.data.count, sampleRate: settings.sampleRate, channels: settings.channels) + $0.data
        }
        try Data(bytes).write(to: file)
        return (packets, file, encoder.primingSamples)
    }
}

@Suite struct AACEncoderTests {
    static let layouts: [(PCMSampleFormat, Bool)] = [(.s16, false), (.f32, true)]

    @Test(arguments: [8_000, 16_000, 22_050, 44_100, 48_000, 96_000], [1, 2, 6])
    func matrixDecodesWithRateChannelsAndDuration(rate: Int, channels: Int) async throws {
        let seconds = 0.3
        let inputSamples = Int(Double(rate) * seconds)
        let settings = AudioEncoderSettings(
            sampleRate: rate, channels: channels,
            bitRate: min(32_000 * channels, AudioEncoderSettings(sampleRate: rate, channels: channels).maxBitRate))
        for (format, planar) in Self.layouts {
            for chunk in [1, 441, 1024, 4096] {
                let label = "\(rate) Hz \(channels) ch \(format)\(planar ? "p" : "") chunk \(chunk)"
                let start = MediaTime(seconds: 1)
                let buffers = sineBuffers(
                    rate: rate, channels: channels, format: format, planar: planar,
                    seconds: seconds, chunk: chunk, start: start)
                let (packets, file, priming) = try await encodeAAC(settings, buffers)
                let json = try Tools.ffprobeJSON([
                    "-count_frames", "-select_streams", "a:0", "-show_entries",
                    "stream=sample_rate,channels,nb_read_frames,codec_name", file.path,
                ])
                let stream = try #require((json["streams"] as? [[String: Any]])?.first, "\(label)")
                #expect(stream["codec_name"] as? String == "aac", "\(label)")
                #expect(Int(stream["sample_rate"] as? String ?? "") == rate, "\(label)")
                #expect(stream["channels"] as? Int == channels, "\(label)")
                let decodedFrames = Int(stream["nb_read_frames"] as? String ?? "") ?? -1
                #expect(decodedFrames == packets.count, "\(label)")
                let decodedSamples = packets.count * 1024 - priming
                #expect(abs(decodedSamples - inputSamples) <= 1024, "\(label): \(decodedSamples) vs \(inputSamples)")
                // Timing: the first packet starts `priming` samples before the input; packets are contiguous.
                #expect(packets.first?.pts == MediaTime(value: Int64(rate) - Int64(priming), timescale: Int32(rate)), "\(label)")
                #expect(
                    packets.first?.formatDescription?.audioSpecificConfig.prefix(2).elementsEqual(AACEncoder.audioSpecificConfig(settings))
                        == true, "\(label)")
                #expect(packets.dropFirst().allSatisfy { $0.formatDescription == nil && $0.isKeyframe }, "\(label)")
                for (a, b) in zip(packets, packets.dropFirst()) { #expect(b.pts.value - a.pts.value == 1024, "\(label)") }
            }
        }
    }

    @Test func resamplesAndRemixesOtherInput() async throws {
        let settings = AudioEncoderSettings(sampleRate: 48_000, channels: 2, bitRate: 96_000)
        let buffers = sineBuffers(rate: 44_100, channels: 1, format: .s32, planar: false, seconds: 0.5, chunk: 700, start: .zero)
        let (packets, file, priming) = try await encodeAAC(settings, buffers)
        let json = try Tools.ffprobeJSON(["-count_frames", "-show_entries", "stream=sample_rate,channels,nb_read_frames", file.path])
        let stream = try #require((json["streams"] as? [[String: Any]])?.first)
        #expect(stream["sample_rate"] as? String == "48000")
        #expect(stream["channels"] as? Int == 2)
        #expect(abs(packets.count * 1024 - priming - 24_000) <= 1024)
    }

    @Test func rejectsMalformedBuffers() async throws {
        try await onDedicatedThread {
            let encoder = try AACEncoder(settings: AudioEncoderSettings())
            let short = PCMBuffer(
                sampleFormat: .f32, isPlanar: false, sampleRate: 48_000, channels: 2,
                frameCount: 100, planes: [[UInt8](repeating: 0, count: 799)], pts: .zero)
            #expect(throws: EncoderError.self) { _ = try encoder.encode(short) }
        }
    }

    @Test func catalogListsH264AndAACEncodersWithStatus() async throws {
        // Injected: no hardware encoders here, whatever this machine has.
        let entries = try await onDedicatedThread { EncoderCatalog.entries(availability: .none) }
        let byName = Dictionary(entries.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byName["libx264"]?.opens == true)
        #expect(byName["aac"]?.opens == true)
        #expect(byName["aac"]?.codec == .aac)
        let nvenc = try #require(byName["h264_nvenc"])
        #expect(nvenc.isHardware)
        #expect(!nvenc.opens)
        #expect(!(nvenc.reason ?? "").isEmpty)
    }
}
#endif
