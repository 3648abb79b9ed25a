import Foundation
import OnAirBitstream
import OnAirTestSupport
import Testing

@Suite("AudioSpecificConfig")
struct AACAudioSpecificConfigTests {
    @Test func minimalConfigsForEveryRateAndChannelCount() throws {
        for rate in AACTestMedia.allRates {
            for channels in [1, 2, 3, 4, 5, 6, 8] {
                for objectType in 1...4 {
                    let config = try AudioSpecificConfig(audioObjectType: objectType, sampleRate: rate, channels: channels)
                    #expect(config.samplingFrequency == rate)
                    #expect(config.outputSampleRate == rate)
                    #expect(config.outputChannels == channels)
                    #expect(config.channelConfiguration == (channels == 8 ? 7 : channels))
                    #expect(config.samplesPerFrame == 1024)
                    let bytes = config.serialized()
                    #expect(bytes.count == 2)
                    #expect(try AudioSpecificConfig(parsing: bytes) == config)
                }
            }
        }
        #expect(try AudioSpecificConfig(sampleRate: 44100, channels: 2).serialized() == [0x12, 0x10])
        #expect(try AudioSpecificConfig(sampleRate: 48000, channels: 1).serialized() == [0x11, 0x88])
    }

    @Test func rejectsUnsupportedParameters() {
        #expect(throws: BitstreamError.self) { try AudioSpecificConfig(sampleRate: 44000, channels: 2) }
        for channels in [0, 7, 9, -1] {
            #expect(throws: BitstreamError.self) { try AudioSpecificConfig(sampleRate: 48000, channels: channels) }
        }
        for objectType in [0, 5, 29, 39] {
            #expect(throws: BitstreamError.self) {
                try AudioSpecificConfig(audioObjectType: objectType, sampleRate: 48000, channels: 2)
            }
        }
    }

    @Test func profileNames() throws {
        let names = try (1...4).map { try AudioSpecificConfig(audioObjectType: $0, sampleRate: 48000, channels: 2).profileName }
        #expect(names == ["Main", "LC", "SSR", "LTP"])
        // ER AAC LD (23), 44.1 kHz stereo, 480-sample frames, epConfig 0.
        let ld = try AudioSpecificConfig(parsing: [0xBA, 0x14, 0x00])
        #expect(ld.audioObjectType == 23 && ld.profileName == "LD" && ld.samplesPerFrame == 480)
        #expect(ld.errorProtectionConfig == 0)
        #expect(ld.serialized() == [0xBA, 0x14, 0x00])
        let eld = try AudioSpecificConfig(parsing: [0xF8, 0xF0, 0x20, 0x00])
        #expect(eld.profileName == "ELD" && eld.samplesPerFrame == 512 && eld.outputChannels == 1)
        #expect(eld.serialized() == [0xF8, 0xF0, 0x20, 0x00])
        #expect(try AudioSpecificConfig(parsing: [0xF8, 0xF0, 0x30, 0x00]).samplesPerFrame == 480)
    }

    @Test func explicitHierarchicalSBRAndPS() throws {
        // AOT 5, 22.05 kHz core, stereo, SBR to 44.1 kHz, core AOT 2.
        let sbr = try AudioSpecificConfig(parsing: [0x2B, 0x92, 0x08, 0x00])
        #expect(sbr.extensionSignalling == .explicitHierarchical)
        #expect(sbr.extensionAudioObjectType == 5 && sbr.sbrPresent == true && sbr.psPresent == nil)
        #expect(sbr.audioObjectType == 2 && sbr.samplingFrequency == 22050)
        #expect(sbr.extensionSamplingFrequency == 44100 && sbr.outputSampleRate == 44100)
        #expect(sbr.samplesPerFrame == 2048 && sbr.outputChannels == 2 && sbr.profileName == "HE-AAC")
        #expect(sbr.serialized() == [0x2B, 0x92, 0x08, 0x00])
        // AOT 29, 24 kHz core, mono, PS and SBR to 48 kHz.
        let ps = try AudioSpecificConfig(parsing: [0xEB, 0x09, 0x88, 0x00])
        #expect(ps.extensionAudioObjectType == 29 && ps.psPresent == true)
        #expect(ps.samplingFrequency == 24000 && ps.outputSampleRate == 48000)
        #expect(ps.outputChannels == 2 && ps.profileName == "HE-AACv2")
        #expect(ps.serialized() == [0xEB, 0x09, 0x88, 0x00])
    }

    @Test func backwardCompatibleSyncExtension() throws {
        // What ffmpeg's encoder writes: LC 44.1 kHz stereo + 0x2b7, AOT 5, sbrPresentFlag 0.
        let absent = try AudioSpecificConfig(parsing: [0x12, 0x10, 0x56, 0xE5, 0x00])
        #expect(absent.extensionSignalling == .syncExtension && absent.sbrPresent == false)
        #expect(absent.profileName == "LC" && absent.outputSampleRate == 44100 && absent.samplesPerFrame == 1024)
        #expect(absent.serialized() == [0x12, 0x10, 0x56, 0xE5, 0x00])
        // LC 22.05 kHz mono + 0x2b7 SBR to 44.1 kHz + 0x548 PS.
        var writer = BitWriter()
        for (value, bits) in [(2, 5), (7, 4), (1, 4), (0, 3), (0x2B7, 11), (5, 5), (1, 1), (4, 4), (0x548, 11), (1, 1)] {
            writer.write(value, bits: bits)
        }
        writer.alignWithZeros()
        let hev2 = try AudioSpecificConfig(parsing: writer.bytes)
        #expect(hev2.sbrPresent == true && hev2.psPresent == true && hev2.extensionSamplingFrequencyIndex == 4)
        #expect(hev2.profileName == "HE-AACv2" && hev2.outputChannels == 2 && hev2.outputSampleRate == 44100)
        #expect(hev2.serialized() == writer.bytes)
    }

    @Test func explicitFrequencyEscapedObjectTypeAndTrailingBits() throws {
        let explicitRate = try AudioSpecificConfig(parsing: [0x17, 0x80, 0x3E, 0x80, 0x10])
        #expect(explicitRate.samplingFrequency == 32000 && explicitRate.channelConfiguration == 2)
        #expect(explicitRate.serialized() == [0x17, 0x80, 0x3E, 0x80, 0x10])
        // Unknown tail bytes are kept verbatim.
        let tail: [UInt8] = [0x12, 0x10, 0xAB, 0xCD]
        let withTail = try AudioSpecificConfig(parsing: tail)
        #expect(!withTail.trailingBits.isEmpty && withTail.serialized() == tail)
        // Core coder delay and extension flag (AOT 1 has no extension fields but extensionFlag3).
        var writer = BitWriter()
        for (value, bits) in [(1, 5), (3, 4), (2, 4), (1, 1), (1, 1), (0x1234, 14), (1, 1), (1, 1)] {
            writer.write(value, bits: bits)
        }
        writer.alignWithZeros()
        let core = try AudioSpecificConfig(parsing: writer.bytes)
        #expect(core.frameLengthFlag && core.samplesPerFrame == 960 && core.coreCoderDelay == 0x1234)
        #expect(core.gaExtension?.extensionFlag3 == true)
        #expect(core.serialized() == writer.bytes)
    }

    @Test func rejectsHostileConfigs() throws {
        let real: [UInt8] = [0x11, 0x80, 0x04, 0xC4, 0x01, 0x00, 0x20, 0x00, 0x0D] + Array("Lavc59.37.100".utf8)
        #expect(try AudioSpecificConfig(parsing: real).programConfig?.channelCount == 3)
        for length in 0..<real.count {
            #expect(throws: BitstreamError.self) { try AudioSpecificConfig(parsing: Array(real.prefix(length))) }
        }
        let ffmpegSync: [UInt8] = [0x12, 0x10, 0x56, 0xE5, 0x00]
        for length in 0..<2 {
            #expect(throws: BitstreamError.self) { try AudioSpecificConfig(parsing: Array(ffmpegSync.prefix(length))) }
        }
        #expect(throws: BitstreamError.self) { try AudioSpecificConfig(parsing: [0x00, 0x00]) }  // AOT 0
        #expect(throws: BitstreamError.self) { try AudioSpecificConfig(parsing: [0x16, 0x90]) }  // index 13
        #expect(throws: BitstreamError.self) { try AudioSpecificConfig(parsing: [0x17, 0x10]) }  // index 14
        #expect(throws: BitstreamError.self) { try AudioSpecificConfig(parsing: [0x17, 0x80, 0x00, 0x00, 0x10]) }  // rate 0
        #expect(throws: BitstreamError.self) { try AudioSpecificConfig(parsing: [0xFF, 0xFF]) }
        // All ones: escaped object type 95 with an explicit rate; kept opaque, never a trap.
        let ones = [UInt8](repeating: 0xFF, count: 64)
        let opaque = try AudioSpecificConfig(parsing: ones)
        #expect(opaque.audioObjectType == 95 && opaque.profileName == "unknown" && opaque.serialized() == ones)
    }

    /// Configs ffmpeg writes (encoder extradata, and ADTS-to-MP4 conversion) round-trip exactly and
    /// agree with ffprobe.
    @Test(arguments: AACTestMedia.allRates.map { ($0, 2) } + AACTestMedia.allChannelCounts.map { (44100, $0) })
    func ffmpegConfigsRoundTrip(rate: Int, channels: Int) throws {
        let directory = try Tools.temporaryDirectory("asc")
        defer { try? FileManager.default.removeItem(at: directory) }
        let encoded = try AACTestMedia.makeM4A(rate: rate, channels: channels, in: directory)
        let adts = try AACTestMedia.makeADTS(
            rate: rate, channels: channels, seconds: 0.3, in: directory,
            name: "remux.aac")
        let remuxed = try AACTestMedia.remuxToM4A(adts)
        for file in [encoded, remuxed] {
            let bytes = try #require(AACMP4Boxes.audioSpecificConfig(in: try AACTestMedia.bytes(file)))
            let config = try AudioSpecificConfig(parsing: bytes)
            #expect(config.serialized() == bytes)
            #expect(try AudioSpecificConfig(parsing: config.serialized()) == config)
            let probe = try AACTestMedia.probe(file)
            #expect(config.outputSampleRate == probe.sampleRate)
            #expect(config.outputChannels == probe.channels)
            #expect(config.profileName == probe.profile)
            #expect(config.samplesPerFrame == 1024)
        }
    }
}
