/// The fixed and variable header of one ADTS frame (ISO/IEC 14496-3 1.A.2.2 / 13818-7 6.2),
/// plus its error-check words when `protection_absent` is 0.
///
/// Parsing and `serialized()` are exact inverses: every header bit is kept.
public struct ADTSHeader: Sendable, Equatable {
    /// 4 for MPEG-4 audio (ID bit 0), 2 for MPEG-2 AAC (ID bit 1).
    public let mpegVersion: Int
    /// Whether the frame carries no CRC (the header is then 7 bytes).
    public let protectionAbsent: Bool
    /// The profile field plus one: 1 Main, 2 LC, 3 SSR, 4 LTP.
    public let audioObjectType: Int
    /// The sampling-frequency index, 0…12.
    public let samplingFrequencyIndex: Int
    /// The private bit (ignored by decoders).
    public var privateBit: Bool
    /// The channel configuration, 0…7; 0 means a program_config_element in the payload defines it.
    public let channelConfiguration: Int
    /// The original/copy bit.
    public var originalCopy: Bool
    /// The home bit.
    public var home: Bool
    /// The copyright identification bit.
    public var copyrightIdentificationBit: Bool
    /// The copyright identification start bit.
    public var copyrightIdentificationStart: Bool
    /// The length of the whole frame in bytes, header and CRC words included (13 bits).
    public let frameLength: Int
    /// The buffer fullness (11 bits); 0x7FF signals a variable-rate stream.
    public internal(set) var bufferFullness: Int
    /// How many raw_data_blocks the frame holds, 1…4 (the header field plus one).
    public let numberOfRawDataBlocks: Int
    /// The header's CRC word; present exactly when `protectionAbsent` is false.
    public internal(set) var crc: UInt16?
    /// With a CRC and more than one raw_data_block: the byte offsets of blocks 2…n, measured
    /// from the first raw_data_block (`raw_data_block_position`); otherwise empty.
    public let rawDataBlockPositions: [Int]

    /// Buffer fullness meaning "variable bit rate"; what ffmpeg and most encoders write.
    public static let variableBitRateFullness = 0x7FF

    /// The largest frame the 13-bit frame_length field can describe.
    public static let maximumFrameLength = 0x1FFF

    /// Header bytes before the first raw_data_block: 7 without CRC, 9 with one, plus 2 bytes
    /// per extra raw_data_block position when a multi-block frame is protected.
    public var headerLength: Int {
        Self.headerLength(protectionAbsent: protectionAbsent, rawDataBlocks: numberOfRawDataBlocks)
    }

    /// The sampling rate in Hz that `samplingFrequencyIndex` stands for.
    public var sampleRate: Int { AACSamplingFrequency.rate(forIndex: samplingFrequencyIndex) ?? 0 }

    /// Bytes after the header: the raw_data_block(s) (and, for protected multi-block frames,
    /// their trailing CRC words).
    public var payloadLength: Int { frameLength - headerLength }

    /// The header length for a protection flag and raw-data-block count.
    static func headerLength(protectionAbsent: Bool, rawDataBlocks: Int) -> Int {
        protectionAbsent ? 7 : 9 + 2 * max(0, rawDataBlocks - 1)
    }

    /// Creates a header from all of its fields; `crc` is kept only for protected headers.
    init(
        mpegVersion: Int, protectionAbsent: Bool, audioObjectType: Int, samplingFrequencyIndex: Int,
        privateBit: Bool = false, channelConfiguration: Int, originalCopy: Bool = false, home: Bool = false,
        copyrightIdentificationBit: Bool = false, copyrightIdentificationStart: Bool = false,
        frameLength: Int, bufferFullness: Int, numberOfRawDataBlocks: Int, crc: UInt16?,
        rawDataBlockPositions: [Int]
    ) {
        self.mpegVersion = mpegVersion
        self.protectionAbsent = protectionAbsent
        self.audioObjectType = audioObjectType
        self.samplingFrequencyIndex = samplingFrequencyIndex
        self.privateBit = privateBit
        self.channelConfiguration = channelConfiguration
        self.originalCopy = originalCopy
        self.home = home
        self.copyrightIdentificationBit = copyrightIdentificationBit
        self.copyrightIdentificationStart = copyrightIdentificationStart
        self.frameLength = frameLength
        self.bufferFullness = bufferFullness
        self.numberOfRawDataBlocks = numberOfRawDataBlocks
        self.crc = protectionAbsent ? nil : (crc ?? 0)
        self.rawDataBlockPositions = rawDataBlockPositions
    }

    /// Parses a header from the start of `bytes` (the rest of the frame need not be present).
    ///
    /// Checks the 0xFFF sync word, layer 0, a sampling-frequency index of 0…12 and a
    /// frame_length that covers at least the header.
    public init(parsing bytes: some Collection<UInt8>) throws(BitstreamError) {
        var reader = AACFieldReader(bytes.prefix(15))
        let sync = try reader.read(12, "ADTS syncword")
        guard sync == 0xFFF else { throw .malformed("ADTS syncword is 0x\(String(sync, radix: 16)), not 0xFFF") }
        let id = try reader.read(1, "ADTS ID")
        let layer = try reader.read(2, "ADTS layer")
        guard layer == 0 else { throw .invalidValue(field: "ADTS layer", value: Int64(layer), allowed: "0") }
        let protectionAbsent = try reader.flag("ADTS protection_absent")
        let profile = try reader.read(2, "ADTS profile_ObjectType")
        let index = try reader.read(4, "ADTS sampling_frequency_index")
        guard AACSamplingFrequency.rate(forIndex: index) != nil else {
            throw .invalidValue(field: "ADTS sampling_frequency_index", value: Int64(index), allowed: "0...12")
        }
        let privateBit = try reader.flag("ADTS private_bit")
        let channels = try reader.read(3, "ADTS channel_configuration")
        let originalCopy = try reader.flag("ADTS original_copy")
        let home = try reader.flag("ADTS home")
        let copyrightBit = try reader.flag("ADTS copyright_identification_bit")
        let copyrightStart = try reader.flag("ADTS copyright_identification_start")
        let frameLength = try reader.read(13, "ADTS aac_frame_length")
        let fullness = try reader.read(11, "ADTS adts_buffer_fullness")
        let blocks = try reader.read(2, "ADTS number_of_raw_data_blocks_in_frame") + 1
        let headerLength = Self.headerLength(protectionAbsent: protectionAbsent, rawDataBlocks: blocks)
        guard frameLength >= headerLength else {
            throw .invalidValue(
                field: "ADTS aac_frame_length", value: Int64(frameLength),
                allowed: "\(headerLength)...\(Self.maximumFrameLength)")
        }
        var positions: [Int] = []
        var crc: UInt16?
        if !protectionAbsent {
            for _ in 1..<blocks {
                let position = try reader.read(16, "ADTS raw_data_block_position")
                guard position < frameLength - headerLength else {
                    throw .invalidValue(
                        field: "ADTS raw_data_block_position", value: Int64(position),
                        allowed: "0..<\(frameLength - headerLength)")
                }
                positions.append(position)
            }
            crc = UInt16(try reader.read(16, "ADTS crc_check"))
        }
        self.init(
            mpegVersion: id == 1 ? 2 : 4, protectionAbsent: protectionAbsent, audioObjectType: profile + 1,
            samplingFrequencyIndex: index, privateBit: privateBit, channelConfiguration: channels,
            originalCopy: originalCopy, home: home, copyrightIdentificationBit: copyrightBit,
            copyrightIdentificationStart: copyrightStart, frameLength: frameLength,
            bufferFullness: fullness, numberOfRawDataBlocks: blocks, crc: crc,
            rawDataBlockPositions: positions)
    }

    /// The header's bytes (`headerLength` of them), the exact inverse of `init(parsing:)`.
    public func serialized() -> [UInt8] {
        var writer = BitWriter()
        writeFixedAndVariable(to: &writer)
        if !protectionAbsent {
            for position in rawDataBlockPositions { writer.write(position, bits: 16) }
            writer.write(crc ?? 0, bits: 16)
        }
        return writer.bytes
    }

    /// Writes the 56 bits of adts_fixed_header and adts_variable_header.
    func writeFixedAndVariable(to writer: inout BitWriter) {
        writer.write(0xFFF, bits: 12)
        writer.write(mpegVersion == 2)
        writer.write(0, bits: 2)
        writer.write(protectionAbsent)
        writer.write(audioObjectType - 1, bits: 2)
        writer.write(samplingFrequencyIndex, bits: 4)
        writer.write(privateBit)
        writer.write(channelConfiguration, bits: 3)
        writer.write(originalCopy)
        writer.write(home)
        writer.write(copyrightIdentificationBit)
        writer.write(copyrightIdentificationStart)
        writer.write(frameLength, bits: 13)
        writer.write(bufferFullness, bits: 11)
        writer.write(numberOfRawDataBlocks - 1, bits: 2)
    }
}
