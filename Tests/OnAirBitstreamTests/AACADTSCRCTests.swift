import Foundation
import OnAirBitstream
import OnAirTestSupport
import Testing

@Suite("ADTS CRC")
struct AACADTSCRCTests {
    @Test func crc16MatchesTheStandardCheckValue() {
        // CRC-16 with polynomial 0x8005, preset 0xFFFF, unreflected, no final XOR ("CRC-16/CMS").
        #expect(ADTS.crc16(Array("123456789".utf8)) == 0xAEE7)
        #expect(ADTS.crc16([UInt8]()) == 0xFFFF)
    }

    /// Raw frames of an ffmpeg-made mono stream, with their config.
    static func monoFrames(rate: Int, in directory: URL) throws -> (AudioSpecificConfig, [[UInt8]]) {
        let url = try AACTestMedia.makeADTS(rate: rate, channels: 1, in: directory)
        let stream = ADTS.parse(try AACTestMedia.bytes(url))
        var config: AudioSpecificConfig?
        var raws: [[UInt8]] = []
        for frame in stream.frames {
            let (frameConfig, raw) = try ADTS.unwrap(frame.serialized())
            config = frameConfig
            raws.append(raw)
        }
        return (try #require(config), raws)
    }

    @Test(arguments: [7350, 8000, 16000, 22050, 44100, 48000, 96000])
    func protectedMonoStreamsVerifyAndDecode(rate: Int) throws {
        let directory = try Tools.temporaryDirectory("adts-crc")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (config, raws) = try Self.monoFrames(rate: rate, in: directory)
        var stream: [UInt8] = []
        for raw in raws {
            let frame = try ADTS.wrap(raw, config: config, crc: true)
            #expect(frame.count == raw.count + 9)
            #expect(ADTS.crcStatus(frame: frame) == .valid)
            #expect(ADTS.verifyCRC(frame: frame))
            let (back, unwrapped) = try ADTS.unwrap(frame)
            #expect(unwrapped == raw && back == config)
            stream += frame
        }
        let parsed = ADTS.parse(stream)
        #expect(parsed.frames.count == raws.count && parsed.skippedBytes == 0)
        #expect(parsed.frames.allSatisfy { !$0.header.protectionAbsent && $0.header.headerLength == 9 })
        #expect(parsed.frames.map { $0.payload } == raws)
        let url = try AACTestMedia.write(stream, named: "crc.aac", in: directory)
        #expect(try AACTestMedia.ffmpegDecodeErrors(url, inputOptions: ["-err_detect", "crccheck+explode"]) == "")
        let probe = try AACTestMedia.probe(url)
        #expect(probe.sampleRate == rate && probe.channels == 1 && probe.packets == raws.count)
    }

    @Test func corruptionOfProtectedBitsIsDetected() throws {
        let directory = try Tools.temporaryDirectory("adts-crc-damage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (config, raws) = try Self.monoFrames(rate: 44100, in: directory)
        var checked = 0
        for raw in raws where raw.first.map({ $0 >> 5 == 0 }) == true && raw.count > 30 {
            let frame = try ADTS.wrap(raw, config: config, crc: true)
            // Every byte of the header, the CRC word, and the first 24 payload bytes (the
            // single_channel_element's first 192 bits after its id) is protected.
            for index in Array(1..<9) + Array(10..<(9 + 24)) {
                var damaged = frame
                damaged[index] ^= 0x01
                let status = ADTS.crcStatus(frame: damaged)
                #expect(status != .valid, "byte \(index) not detected")
                #expect(!ADTS.verifyCRC(frame: damaged))
            }
            // The ADTS CRC does not cover the rest of an element: such damage is not detected.
            var tail = frame
            tail[frame.count - 2] ^= 0x01
            #expect(ADTS.crcStatus(frame: tail) == .valid)
            checked += 1
        }
        #expect(checked > 10)
        let unprotected = try ADTS.wrap(raws[0], config: config)
        #expect(ADTS.crcStatus(frame: unprotected) == .absent)
        #expect(!ADTS.verifyCRC(frame: unprotected))
    }

    @Test func channelPairsCannotBeProtectedOrVerified() throws {
        let stereo = try AudioSpecificConfig(sampleRate: 48000, channels: 2)
        let cpeLike: [UInt8] = [0x21] + [UInt8](repeating: 0x5A, count: 40)
        #expect(throws: BitstreamError.unsupported("ADTS CRC over a raw_data_block with id_syn_ele 1")) {
            try ADTS.wrap(cpeLike, config: stereo, crc: true)
        }
        var header = try ADTSHeader(config: stereo, payloadLength: cpeLike.count, protectionAbsent: false)
        header.home = true
        let frame = header.serialized() + cpeLike
        guard case .unverifiable = ADTS.crcStatus(frame: frame) else {
            Issue.record("a channel pair frame's CRC cannot be verified")
            return
        }
        #expect(!ADTS.verifyCRC(frame: frame))
    }

    @Test func multiBlockFramesCheckTheHeaderAndEachBlock() throws {
        // 2 raw_data_blocks of just an END element: no protected block bits, so each block's CRC
        // is the preset 0xFFFF; the header CRC covers the 56 header bits and the position field.
        let frameLength = 11 + 3 + 3
        var writer = BitWriter()
        for (value, bits) in [
            (0xFFF, 12), (0, 1), (0, 2), (0, 1), (1, 2), (4, 4), (0, 1), (1, 3), (0, 4),
            (frameLength, 13), (0x7FF, 11), (1, 2), (3, 16),
        ] {
            writer.write(value, bits: bits)
        }
        let headerCRC = ADTS.crc16(writer.bytes)
        var frame = writer.bytes + [UInt8(headerCRC >> 8), UInt8(headerCRC & 0xFF)]
        frame += [0xE0, 0xFF, 0xFF, 0xE0, 0xFF, 0xFF]
        let header = try ADTSHeader(parsing: frame)
        #expect(header.numberOfRawDataBlocks == 2 && header.rawDataBlockPositions == [3] && header.headerLength == 11)
        #expect(header.serialized() == Array(frame.prefix(11)))
        #expect(ADTS.crcStatus(frame: frame) == .valid)
        var badBlockCRC = frame
        badBlockCRC[16] = 0xFE
        #expect(ADTS.crcStatus(frame: badBlockCRC) == .mismatch)
        var badHeader = frame
        badHeader[2] ^= 0x02  // private bit
        #expect(ADTS.crcStatus(frame: badHeader) == .mismatch)
        #expect(throws: BitstreamError.self) { try ADTS.unwrap(frame) }
        let stream = ADTS.parse(frame + frame)
        #expect(stream.frames.count == 2 && stream.frames[0].payload == [0xE0, 0xFF, 0xFF, 0xE0, 0xFF, 0xFF])
    }

    @Test func truncatedOrPaddedFramesAreUnverifiable() throws {
        let config = try AudioSpecificConfig(sampleRate: 44100, channels: 1)
        let frame = try ADTS.wrap([0xE0], config: config, crc: true)  // END only
        #expect(ADTS.crcStatus(frame: frame) == .valid)
        for length in 0..<frame.count {
            guard case .unverifiable = ADTS.crcStatus(frame: Array(frame.prefix(length))) else {
                Issue.record("truncated to \(length) bytes should be unverifiable")
                continue
            }
        }
        guard case .unverifiable = ADTS.crcStatus(frame: frame + [0]) else {
            Issue.record("a frame with extra bytes should be unverifiable")
            return
        }
    }
}
