/// A program_config_element (ISO/IEC 14496-3 4.4.1.1): an explicit channel layout, carried in
/// an AudioSpecificConfig or in-band when the channel configuration is 0.
public struct ProgramConfigElement: Sendable, Equatable {
    /// One front, side or back element of the layout.
    public struct ChannelElement: Sendable, Equatable {
        /// Whether the element is a channel pair (two channels) rather than a single channel.
        public let isChannelPair: Bool
        /// The element instance tag it refers to.
        public let tag: Int
    }

    /// One coupling channel element of the layout.
    public struct CouplingElement: Sendable, Equatable {
        /// Whether the coupling channel is independently switched.
        public let isIndependentlySwitched: Bool
        /// The element instance tag it refers to.
        public let tag: Int
    }

    /// A matrix-mixdown description.
    public struct MatrixMixdown: Sendable, Equatable {
        /// The mixdown coefficient index, 0…3.
        public let index: Int
        /// Whether pseudo-surround is enabled.
        public let pseudoSurround: Bool
    }

    /// The element instance tag, 0…15.
    public let elementInstanceTag: Int
    /// The 2-bit object type (profile) field.
    public let objectType: Int
    /// The 4-bit sampling-frequency index.
    public let samplingFrequencyIndex: Int
    /// Front channel elements, in order.
    public let front: [ChannelElement]
    /// Side channel elements, in order.
    public let side: [ChannelElement]
    /// Back channel elements, in order.
    public let back: [ChannelElement]
    /// Tags of the LFE elements.
    public let lfeTags: [Int]
    /// Tags of the associated data elements.
    public let associatedDataTags: [Int]
    /// Coupling channel elements.
    public let couplingElements: [CouplingElement]
    /// The mono mixdown element number, when present.
    public let monoMixdownElement: Int?
    /// The stereo mixdown element number, when present.
    public let stereoMixdownElement: Int?
    /// The matrix mixdown description, when present.
    public let matrixMixdown: MatrixMixdown?
    /// The comment field bytes.
    public let comment: [UInt8]

    /// The number of output channels the layout describes (pairs count twice, LFEs once).
    public var channelCount: Int {
        (front + side + back).reduce(0) { $0 + ($1.isChannelPair ? 2 : 1) } + lfeTags.count
    }

    /// Parses a program_config_element (without its element id) from `reader`.
    ///
    /// Its byte_alignment() is taken relative to the first bit `reader` was created on, which
    /// must be the start of the enclosing AudioSpecificConfig or raw_data_block.
    static func parse(from reader: inout AACFieldReader) throws(BitstreamError) -> ProgramConfigElement {
        let tag = try reader.read(4, "PCE element_instance_tag")
        let objectType = try reader.read(2, "PCE object_type")
        let index = try reader.read(4, "PCE sampling_frequency_index")
        let frontCount = try reader.read(4, "PCE num_front_channel_elements")
        let sideCount = try reader.read(4, "PCE num_side_channel_elements")
        let backCount = try reader.read(4, "PCE num_back_channel_elements")
        let lfeCount = try reader.read(2, "PCE num_lfe_channel_elements")
        let assocCount = try reader.read(3, "PCE num_assoc_data_elements")
        let ccCount = try reader.read(4, "PCE num_valid_cc_elements")
        let mono = try reader.flag("PCE mono_mixdown_present") ? try reader.read(4, "PCE mono_mixdown_element_number") : nil
        let stereo =
            try reader.flag("PCE stereo_mixdown_present")
            ? try reader.read(4, "PCE stereo_mixdown_element_number") : nil
        var matrix: MatrixMixdown?
        if try reader.flag("PCE matrix_mixdown_idx_present") {
            matrix = MatrixMixdown(
                index: try reader.read(2, "PCE matrix_mixdown_idx"),
                pseudoSurround: try reader.flag("PCE pseudo_surround_enable"))
        }
        func elements(_ count: Int, _ name: String) throws(BitstreamError) -> [ChannelElement] {
            var result: [ChannelElement] = []
            for _ in 0..<count {
                result.append(
                    ChannelElement(
                        isChannelPair: try reader.flag("PCE \(name)_element_is_cpe"),
                        tag: try reader.read(4, "PCE \(name)_element_tag_select")))
            }
            return result
        }
        let front = try elements(frontCount, "front")
        let side = try elements(sideCount, "side")
        let back = try elements(backCount, "back")
        var lfe: [Int] = []
        for _ in 0..<lfeCount { lfe.append(try reader.read(4, "PCE lfe_element_tag_select")) }
        var assoc: [Int] = []
        for _ in 0..<assocCount { assoc.append(try reader.read(4, "PCE assoc_data_element_tag_select")) }
        var coupling: [CouplingElement] = []
        for _ in 0..<ccCount {
            coupling.append(
                CouplingElement(
                    isIndependentlySwitched: try reader.flag("PCE cc_element_is_ind_sw"),
                    tag: try reader.read(4, "PCE valid_cc_element_tag_select")))
        }
        reader.alignToByte()
        let commentLength = try reader.read(8, "PCE comment_field_bytes")
        var comment: [UInt8] = []
        for _ in 0..<commentLength { comment.append(UInt8(try reader.read(8, "PCE comment_field_data"))) }
        return ProgramConfigElement(
            elementInstanceTag: tag, objectType: objectType, samplingFrequencyIndex: index,
            front: front, side: side, back: back, lfeTags: lfe, associatedDataTags: assoc,
            couplingElements: coupling, monoMixdownElement: mono,
            stereoMixdownElement: stereo, matrixMixdown: matrix, comment: comment)
    }

    /// Writes the element (without an element id); byte_alignment() is relative to the
    /// writer's first bit.
    func write(to writer: inout BitWriter) {
        writer.write(elementInstanceTag, bits: 4)
        writer.write(objectType, bits: 2)
        writer.write(samplingFrequencyIndex, bits: 4)
        writer.write(front.count, bits: 4)
        writer.write(side.count, bits: 4)
        writer.write(back.count, bits: 4)
        writer.write(lfeTags.count, bits: 2)
        writer.write(associatedDataTags.count, bits: 3)
        writer.write(couplingElements.count, bits: 4)
        writer.write(monoMixdownElement != nil)
        if let mono = monoMixdownElement { writer.write(mono, bits: 4) }
        writer.write(stereoMixdownElement != nil)
        if let stereo = stereoMixdownElement { writer.write(stereo, bits: 4) }
        writer.write(matrixMixdown != nil)
        if let matrix = matrixMixdown {
            writer.write(matrix.index, bits: 2)
            writer.write(matrix.pseudoSurround)
        }
        for element in front + side + back {
            writer.write(element.isChannelPair)
            writer.write(element.tag, bits: 4)
        }
        for tag in lfeTags + associatedDataTags { writer.write(tag, bits: 4) }
        for element in couplingElements {
            writer.write(element.isIndependentlySwitched)
            writer.write(element.tag, bits: 4)
        }
        writer.alignWithZeros()
        writer.write(comment.count, bits: 8)
        for byte in comment { writer.write(byte, bits: 8) }
    }
}
