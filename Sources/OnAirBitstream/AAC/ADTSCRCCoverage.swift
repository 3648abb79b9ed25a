/// Which bits of a raw_data_block an ADTS CRC protects (ISO/IEC 13818-7 8.1.1.1, as referenced
/// by ISO/IEC 14496-3 1.A.3.2.1).
///
/// The standard protects, after each element's id_syn_ele: the first 192 bits of every
/// single_channel_element, channel_pair_element, coupling_channel_element and
/// lfe_channel_element (zero-padded when the element is shorter), the first 128 bits of a
/// channel pair's second individual_channel_stream, and all of every program_config_element and
/// data_stream_element; fill elements are not protected. (The 56 header bits come first.)
///
/// Finding where an audio element ends — or where a pair's second channel starts — needs the
/// Huffman-coded spectral data to be decoded, which this package does not do. So the coverage
/// is computed exactly for blocks of PCE/DSE/FIL elements followed by one single_channel_element
/// in a mono (channel configuration 1) stream, with that element taken to be the last protected
/// one and to run on to the end of the block when shorter than 192 bits. Everything else throws
/// `unsupported`.
enum ADTSCRCCoverage {
    /// Feeds the protected bits of one raw_data_block into `accumulator`.
    static func accumulate(
        block: [UInt8], channelConfiguration: Int,
        into accumulator: inout ADTSCRCAccumulator
    ) throws(BitstreamError) {
        var reader = AACFieldReader(block)
        while true {
            let element = try reader.read(3, "id_syn_ele")
            let start = reader.bitPosition
            switch element {
            case AACSyntaxElement.singleChannel:
                guard channelConfiguration == 1 else {
                    throw .unsupported("ADTS CRC for channel configuration \(channelConfiguration)")
                }
                accumulator.update(bits: block, start: start, count: min(192, reader.bitsLeft), paddedTo: 192)
                return
            case AACSyntaxElement.dataStream:
                try skipDataStream(&reader)
                accumulator.update(bits: block, start: start, count: reader.bitPosition - start, paddedTo: 0)
            case AACSyntaxElement.programConfig:
                _ = try ProgramConfigElement.parse(from: &reader)
                accumulator.update(bits: block, start: start, count: reader.bitPosition - start, paddedTo: 0)
            case AACSyntaxElement.fill:
                var count = try reader.read(4, "fill count")
                if count == 15 { count += try reader.read(8, "fill esc_count") - 1 }
                try reader.skip(8 * count, "fill_element payload")
            case AACSyntaxElement.end:
                return
            default:
                throw .unsupported("ADTS CRC over a raw_data_block with id_syn_ele \(element)")
            }
        }
    }

    /// Skips a data_stream_element after its id.
    private static func skipDataStream(_ reader: inout AACFieldReader) throws(BitstreamError) {
        try reader.skip(4, "DSE element_instance_tag")
        let aligned = try reader.flag("DSE data_byte_align_flag")
        var count = try reader.read(8, "DSE count")
        if count == 255 { count += try reader.read(8, "DSE esc_count") }
        if aligned { reader.alignToByte() }
        try reader.skip(8 * count, "DSE data_stream_byte")
    }
}
