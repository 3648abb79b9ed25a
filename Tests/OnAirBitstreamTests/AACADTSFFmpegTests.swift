import Foundation
import OnAirBitstream
import OnAirTestSupport
import Testing

/// ADTS streams made by ffmpeg's native AAC encoder, checked against ffprobe.
@Suite("ADTS against ffmpeg")
struct AACADTSFFmpegTests {
    /// Every indexed rate (stereo) plus every channel count (48 kHz).
    static let cases: [(rate: Int, channels: Int)] =
        AACTestMedia.allRates.map { ($0, 2) } + AACTestMedia.allChannelCounts.filter { $0 != 2 }.map { (48000, $0) }

    @Test(arguments: cases)
    func parsesLikeFFprobe(rate: Int, channels: Int) throws {
        let directory = try Tools.temporaryDirectory("adts-probe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let seconds = 0.5
        let url = try AACTestMedia.makeADTS(rate: rate, channels: channels, seconds: seconds, in: directory)
        let bytes = try AACTestMedia.bytes(url)
        let stream = ADTS.parse(bytes)
        let probe = try AACTestMedia.probe(url)
        #expect(stream.skippedBytes == 0 && stream.damagedFrames == 0)
        #expect(stream.frames.count == probe.packets)
        let first = try #require(stream.frames.first)
        #expect(first.header.sampleRate == probe.sampleRate)
        #expect(probe.sampleRate == rate)
        #expect(probe.channels == channels)
        let (config, _) = try ADTS.unwrap(first.serialized())
        #expect(config.outputChannels == probe.channels)
        #expect(config.outputSampleRate == probe.sampleRate)
        #expect(config.profileName == probe.profile)
        // ffmpeg primes with 1024 samples and pads the last frame: the frames cover the input.
        let covered = Double(stream.frames.count * 1024) / Double(rate)
        #expect(covered >= seconds && covered <= seconds + 3 * 1024 / Double(rate))
        if let duration = probe.duration {  // estimated from the bit rate for ADTS
            #expect(abs(duration - covered) <= 0.25 * covered)
        }
    }

    @Test(arguments: cases)
    func roundTripsByteExactly(rate: Int, channels: Int) throws {
        let directory = try Tools.temporaryDirectory("adts-roundtrip")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = try AACTestMedia.bytes(try AACTestMedia.makeADTS(rate: rate, channels: channels, in: directory))
        let stream = ADTS.parse(bytes)
        #expect(stream.frames.flatMap { $0.serialized() } == bytes)
        var rebuilt: [UInt8] = []
        var programConfig: ProgramConfigElement?
        for frame in stream.frames {
            #expect(try ADTSHeader(parsing: frame.header.serialized()) == frame.header)
            let (config, raw) = try ADTS.unwrap(frame.serialized(), programConfig: programConfig)
            programConfig = config.programConfig
            #expect(raw == frame.payload)
            #expect(try AudioSpecificConfig(parsing: config.serialized()) == config)
            if frame.header.channelConfiguration == 0 {
                // Parse-only: ffmpeg's 3-channel (2.1) layout needs an in-band PCE.
                #expect(config.programConfig?.channelCount == channels)
                #expect(throws: BitstreamError.self) { try ADTS.wrap(raw, config: config) }
                rebuilt += frame.serialized()
            } else {
                rebuilt += try ADTS.wrap(raw, config: config)
            }
        }
        #expect(rebuilt == bytes)
    }

    /// Raw frames and config from an MP4 that ffmpeg wrote, re-wrapped by us, decode cleanly.
    @Test(arguments: [(44100, 1), (48000, 2), (22050, 2), (96000, 1), (8000, 1), (48000, 6), (32000, 8), (7350, 2)])
    func ffmpegDecodesStreamsWeWrap(rate: Int, channels: Int) throws {
        let directory = try Tools.temporaryDirectory("adts-wrap")
        defer { try? FileManager.default.removeItem(at: directory) }
        let m4a = try AACTestMedia.makeM4A(rate: rate, channels: channels, in: directory)
        let ascBytes = try #require(AACMP4Boxes.audioSpecificConfig(in: try AACTestMedia.bytes(m4a)))
        let config = try AudioSpecificConfig(parsing: ascBytes)
        let packets = try AACTestMedia.packets(of: m4a)
        #expect(!packets.isEmpty)
        var ours: [UInt8] = []
        for packet in packets {
            let frame = try ADTS.wrap(packet, config: config)
            let (back, raw) = try ADTS.unwrap(frame)
            #expect(raw == packet)
            #expect(back.samplingFrequencyIndex == config.samplingFrequencyIndex)
            #expect(back.channelConfiguration == config.channelConfiguration)
            ours += frame
        }
        let url = try AACTestMedia.write(ours, named: "ours.aac", in: directory)
        #expect(try AACTestMedia.ffmpegDecodeErrors(url) == "")
        let probe = try AACTestMedia.probe(url)
        #expect(probe.sampleRate == rate)
        #expect(probe.channels == channels)
        #expect(probe.packets == packets.count)
        #expect(ADTS.parse(ours).frames.count == packets.count)
    }
}
