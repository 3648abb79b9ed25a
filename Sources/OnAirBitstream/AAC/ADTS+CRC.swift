extension ADTS {
    /// The ADTS CRC-16 (ISO/IEC 11172-3 2.4.3.1: polynomial 0x8005, preset 0xFFFF, MSB first, no
    /// final inversion) of whole bytes.
    public static func crc16(_ bytes: some Sequence<UInt8>) -> UInt16 {
        var accumulator = ADTSCRCAccumulator()
        accumulator.update(bytes: bytes)
        return accumulator.value
    }

    /// Whether `frame` (exactly one ADTS frame) carries a CRC that matches: `true` only for
    /// `crcStatus(frame:) == .valid`.
    public static func verifyCRC(frame: [UInt8]) -> Bool {
        crcStatus(frame: frame) == .valid
    }

    /// Checks the CRC words of `frame` (exactly one ADTS frame).
    ///
    /// The header CRC of a multi-block frame (header and raw_data_block_position fields) is
    /// always checkable. Coverage of raw_data_block bits is as `wrap(_:config:crc:)` computes it:
    /// exact for mono frames of single_channel_element (plus PCE/DSE/FIL) content; frames with
    /// channel pairs, LFE or coupling elements are `.unverifiable`, because locating their
    /// protected bits needs Huffman decoding of the spectral data.
    public static func crcStatus(frame: [UInt8]) -> ADTSCRCStatus {
        let header: ADTSHeader
        do {
            header = try ADTSHeader(parsing: frame)
        } catch {
            return .unverifiable(error.description)
        }
        guard frame.count == header.frameLength else {
            return .unverifiable("\(frame.count) bytes for a \(header.frameLength)-byte ADTS frame")
        }
        guard !header.protectionAbsent, let headerCRC = header.crc else { return .absent }
        do {
            var headerAccumulator = ADTSCRCAccumulator()
            headerAccumulator.update(bytes: frame.prefix(header.headerLength - 2))
            if header.numberOfRawDataBlocks == 1 {
                try ADTSCRCCoverage.accumulate(
                    block: Array(frame[header.headerLength...]),
                    channelConfiguration: header.channelConfiguration,
                    into: &headerAccumulator)
                return headerAccumulator.value == headerCRC ? .valid : .mismatch
            }
            var matches = headerAccumulator.value == headerCRC
            let starts = [0] + header.rawDataBlockPositions
            for (number, start) in starts.enumerated() {
                let blockStart = header.headerLength + start
                let crcStart =
                    number + 1 < starts.count
                    ? header.headerLength + starts[number + 1] - 2
                    : header.frameLength - 2
                guard blockStart <= crcStart, crcStart + 2 <= frame.count else {
                    return .unverifiable("raw_data_block_position values do not fit the frame")
                }
                var accumulator = ADTSCRCAccumulator()
                try ADTSCRCCoverage.accumulate(
                    block: Array(frame[blockStart..<crcStart]),
                    channelConfiguration: header.channelConfiguration,
                    into: &accumulator)
                let stored = UInt16(frame[crcStart]) << 8 | UInt16(frame[crcStart + 1])
                matches = matches && accumulator.value == stored
            }
            return matches ? .valid : .mismatch
        } catch {
            return .unverifiable(error.description)
        }
    }
}
