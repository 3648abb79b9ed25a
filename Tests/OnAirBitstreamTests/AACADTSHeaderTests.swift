import OnAirBitstream
import Testing

@Suite("ADTSHeader")
struct AACADTSHeaderTests {
    /// A header ffmpeg wrote: 44.1 kHz stereo LC, 281-byte frame, VBR, no CRC.
    static let ffmpegHeader: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x23, 0x3F, 0xFC]

    @Test func parsesFFmpegHeaderFields() throws {
        let header = try ADTSHeader(parsing: Self.ffmpegHeader)
        #expect(header.mpegVersion == 4)
        #expect(header.protectionAbsent)
        #expect(header.audioObjectType == 2)
        #expect(header.samplingFrequencyIndex == 4)
        #expect(header.sampleRate == 44100)
        #expect(header.channelConfiguration == 2)
        #expect(header.frameLength == 281)
        #expect(header.bufferFullness == 0x7FF)
        #expect(header.numberOfRawDataBlocks == 1)
        #expect(header.crc == nil)
        #expect(header.headerLength == 7)
        #expect(header.payloadLength == 274)
        #expect(!header.privateBit && !header.originalCopy && !header.home)
        #expect(!header.copyrightIdentificationBit && !header.copyrightIdentificationStart)
        #expect(header.serialized() == Self.ffmpegHeader)
    }

    @Test func everyRateChannelAndProtectionRoundTrips() throws {
        for index in 0...12 {
            for channels in 1...7 {
                for protectionAbsent in [true, false] {
                    let config = try AudioSpecificConfig(
                        sampleRate: AACSamplingFrequency.table[index],
                        channels: channels == 7 ? 8 : channels)
                    let header = try ADTSHeader(
                        config: config, payloadLength: 100 + index,
                        protectionAbsent: protectionAbsent)
                    #expect(header.samplingFrequencyIndex == index)
                    #expect(header.channelConfiguration == channels)
                    #expect(header.headerLength == (protectionAbsent ? 7 : 9))
                    #expect(header.frameLength == header.headerLength + 100 + index)
                    let bytes = header.serialized()
                    #expect(bytes.count == header.headerLength)
                    let parsed = try ADTSHeader(parsing: bytes)
                    #expect(parsed == header)
                    #expect(parsed.serialized() == bytes)
                }
            }
        }
    }

    @Test func everyBitPatternOfTheFlagsRoundTrips() throws {
        // MPEG-2 ID, all four profiles, private/original/home/copyright bits, 4 raw blocks, CRC.
        var bytes: [UInt8] = [0xFF, 0xF8, 0xC3, 0xBC, 0x20, 0x0A, 0xAB, 0x00, 0x10, 0x00, 0x20, 0x00, 0x30, 0x12, 0x34]
        let header = try ADTSHeader(parsing: bytes)
        #expect(header.mpegVersion == 2)
        #expect(!header.protectionAbsent)
        #expect(header.audioObjectType == 4)
        #expect(header.samplingFrequencyIndex == 0)
        #expect(header.privateBit)
        #expect(header.channelConfiguration == 6)
        #expect(header.originalCopy && header.home && header.copyrightIdentificationBit)
        #expect(header.copyrightIdentificationStart)
        #expect(header.numberOfRawDataBlocks == 4)
        #expect(header.rawDataBlockPositions == [0x10, 0x20, 0x30])
        #expect(header.crc == 0x1234)
        #expect(header.headerLength == 15)
        #expect(header.serialized() == bytes)
        for profile in 0...3 {
            bytes[2] = (bytes[2] & 0x3F) | UInt8(profile << 6)
            #expect(try ADTSHeader(parsing: bytes).audioObjectType == profile + 1)
        }
    }

    @Test func configRejectsWhatADTSCannotCarry() throws {
        let stereo = try AudioSpecificConfig(sampleRate: 48000, channels: 2)
        #expect(throws: BitstreamError.self) { try ADTSHeader(config: stereo, payloadLength: 8192 - 7) }
        #expect(throws: BitstreamError.self) { try ADTSHeader(config: stereo, payloadLength: 8191 - 8, protectionAbsent: false) }
        #expect(throws: BitstreamError.self) { try ADTSHeader(config: stereo, payloadLength: -1) }
        #expect(try ADTSHeader(config: stereo, payloadLength: 8191 - 7).frameLength == 8191)
        #expect(try ADTSHeader(config: stereo, payloadLength: 8191 - 9, protectionAbsent: false).frameLength == 8191)
        // HE-AAC (explicit, AOT 5 over LC) has core type 2: it fits (implicit signalling in ADTS).
        let heAAC = try AudioSpecificConfig(parsing: [0x2B, 0x92, 0x08, 0x00])
        #expect(heAAC.audioObjectType == 2)
        #expect(try ADTSHeader(config: heAAC, payloadLength: 10).sampleRate == 22050)
        // ELD (AOT 39), explicit frequency, PCE-defined channels: rejected.
        let eld = try AudioSpecificConfig(parsing: [0xF8, 0xF0, 0x30, 0x00])
        #expect(eld.audioObjectType == 39)
        #expect(throws: BitstreamError.self) { try ADTSHeader(config: eld, payloadLength: 10) }
        let explicitRate = try AudioSpecificConfig(parsing: [0x17, 0x80, 0x3E, 0x80, 0x10])
        #expect(explicitRate.samplingFrequency == 32000 && explicitRate.samplingFrequencyIndex == 15)
        #expect(throws: BitstreamError.self) { try ADTSHeader(config: explicitRate, payloadLength: 10) }
    }

    @Test func rejectsHostileHeaders() throws {
        let good = Self.ffmpegHeader
        for length in 0..<good.count {
            #expect(throws: BitstreamError.self) { try ADTSHeader(parsing: good.prefix(length)) }
        }
        var badSync = good
        badSync[1] = 0xE1
        #expect(throws: BitstreamError.self) { try ADTSHeader(parsing: badSync) }
        for layer in 1...3 {
            var bytes = good
            bytes[1] = (bytes[1] & 0xF9) | UInt8(layer << 1)
            #expect(throws: BitstreamError.self) { try ADTSHeader(parsing: bytes) }
        }
        for index in 13...15 {
            var bytes = good
            bytes[2] = (bytes[2] & 0xC3) | UInt8(index << 2)
            #expect(throws: BitstreamError.self) { try ADTSHeader(parsing: bytes) }
        }
        for frameLength in [0, 1, 6] {
            var bytes = good
            bytes[3] = (bytes[3] & 0xFC) | UInt8(frameLength >> 11)
            bytes[4] = UInt8((frameLength >> 3) & 0xFF)
            bytes[5] = (bytes[5] & 0x1F) | UInt8((frameLength & 7) << 5)
            #expect(throws: BitstreamError.self) { try ADTSHeader(parsing: bytes) }
        }
        // Protected, but frame_length 8 < 9.
        var protected = good
        protected[1] = 0xF0
        protected[4] = 0x01
        protected[5] = 0x1F
        #expect(throws: BitstreamError.self) { try ADTSHeader(parsing: protected + [0, 0]) }
        #expect(throws: BitstreamError.self) { try ADTSHeader(parsing: [UInt8](repeating: 0xFF, count: 9)) }
        #expect(throws: BitstreamError.self) { try ADTSHeader(parsing: [UInt8]()) }
    }
}
