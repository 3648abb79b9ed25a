/// An H.265/HEVC sequence parameter set (ITU-T H.265 7.3.2.2), read as far as the VUI: picture
/// size with the conformance window, chroma format and bit depth, profile, tier and level, and
/// the VUI's timing. Every read is bounds-checked; a hostile unit throws, never traps.
public struct HEVCSPS: Sendable, Hashable {
    /// `sps_video_parameter_set_id`.
    public var vpsID = 0
    /// `sps_max_sub_layers_minus1 + 1`: the temporal layers (1…7).
    public var maxSubLayers = 1
    /// `sps_temporal_id_nesting_flag`.
    public var temporalIDNesting = false
    /// The general profile, tier and level.
    public var profileTierLevel = HEVCProfileTierLevel(profileIdc: 0, levelIdc: 0)
    /// `sps_seq_parameter_set_id` (0…15).
    public var spsID = 0
    /// `chroma_format_idc`: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    public var chromaFormatIdc = 1
    /// `separate_colour_plane_flag` (4:4:4 only).
    public var separateColourPlane = false
    /// `pic_width_in_luma_samples`: the coded width.
    public var codedWidth = 0
    /// `pic_height_in_luma_samples`: the coded height.
    public var codedHeight = 0
    /// The conformance window's left, right, top and bottom offsets, in chroma units.
    public var conformanceWindow: [Int] = [0, 0, 0, 0]
    /// `bit_depth_luma_minus8 + 8`.
    public var bitDepthLuma = 8
    /// `bit_depth_chroma_minus8 + 8`.
    public var bitDepthChroma = 8
    /// `log2_max_pic_order_cnt_lsb_minus4 + 4`.
    public var log2MaxPicOrderCountLSB = 4
    /// `sps_max_num_reorder_pics` of the highest sub-layer: 0 when no picture is shown out of order.
    public var maxNumReorderPictures = 0
    /// The VUI, when present.
    public var vui: HEVCVUI?

    /// Parses an SPS NAL unit (type 33).
    public init(_ unit: HEVCNALUnit) throws(BitstreamError) {
        guard unit.type == .sps else {
            throw BitstreamError.invalidValue(field: "nal_unit_type", value: Int64(unit.type.rawValue), allowed: "33 (SPS)")
        }
        try self.init(rbsp: unit.rbsp)
    }

    /// Parses an SPS RBSP (the unit's payload after its two header bytes, without emulation prevention).
    public init(rbsp: [UInt8]) throws(BitstreamError) {
        var reader = H264BitReader(rbsp)
        vpsID = try reader.bits(4, "sps_video_parameter_set_id")
        let maxSubLayersMinus1 = try reader.bits(3, "sps_max_sub_layers_minus1")
        guard maxSubLayersMinus1 <= 6 else {
            throw BitstreamError.invalidValue(field: "sps_max_sub_layers_minus1", value: Int64(maxSubLayersMinus1), allowed: "0...6")
        }
        maxSubLayers = maxSubLayersMinus1 + 1
        temporalIDNesting = try reader.flag("sps_temporal_id_nesting_flag")
        profileTierLevel = try HEVCProfileTierLevel(reading: &reader, maxSubLayersMinus1: maxSubLayersMinus1)
        spsID = try reader.ue("sps_seq_parameter_set_id", in: 0...15)
        chromaFormatIdc = try reader.ue("chroma_format_idc", in: 0...3)
        if chromaFormatIdc == 3 { separateColourPlane = try reader.flag("separate_colour_plane_flag") }
        codedWidth = try reader.ue("pic_width_in_luma_samples", in: 1...65_535)
        codedHeight = try reader.ue("pic_height_in_luma_samples", in: 1...65_535)
        if try reader.flag("conformance_window_flag") {
            conformanceWindow = []
            for side in ["left", "right", "top", "bottom"] {
                conformanceWindow.append(try reader.ue("conf_win_\(side)_offset", in: 0...65_535))
            }
            let (unitX, unitY) = cropUnits
            guard (conformanceWindow[0] + conformanceWindow[1]) * unitX < codedWidth,
                (conformanceWindow[2] + conformanceWindow[3]) * unitY < codedHeight
            else {
                throw BitstreamError.malformed("HEVC conformance window larger than the \(codedWidth)x\(codedHeight) picture")
            }
        }
        bitDepthLuma = try reader.ue("bit_depth_luma_minus8", in: 0...8) + 8
        bitDepthChroma = try reader.ue("bit_depth_chroma_minus8", in: 0...8) + 8
        log2MaxPicOrderCountLSB = try reader.ue("log2_max_pic_order_cnt_lsb_minus4", in: 0...12) + 4
        let orderingForAll = try reader.flag("sps_sub_layer_ordering_info_present_flag")
        for _ in (orderingForAll ? 0 : maxSubLayersMinus1)...maxSubLayersMinus1 {
            _ = try reader.ue("sps_max_dec_pic_buffering_minus1", in: 0...15)
            maxNumReorderPictures = try reader.ue("sps_max_num_reorder_pics", in: 0...15)
            _ = try reader.ue("sps_max_latency_increase_plus1")
        }
        _ = try reader.ue("log2_min_luma_coding_block_size_minus3", in: 0...3)
        _ = try reader.ue("log2_diff_max_min_luma_coding_block_size", in: 0...3)
        _ = try reader.ue("log2_min_luma_transform_block_size_minus2", in: 0...3)
        _ = try reader.ue("log2_diff_max_min_luma_transform_block_size", in: 0...3)
        _ = try reader.ue("max_transform_hierarchy_depth_inter", in: 0...4)
        _ = try reader.ue("max_transform_hierarchy_depth_intra", in: 0...4)
        if try reader.flag("scaling_list_enabled_flag"), try reader.flag("sps_scaling_list_data_present_flag") {
            try Self.skipScalingListData(&reader)
        }
        try reader.skip(2, "amp_enabled_flag, sample_adaptive_offset_enabled_flag")
        if try reader.flag("pcm_enabled_flag") {
            try reader.skip(8, "pcm_sample_bit_depth_luma_minus1, pcm_sample_bit_depth_chroma_minus1")
            _ = try reader.ue("log2_min_pcm_luma_coding_block_size_minus3", in: 0...2)
            _ = try reader.ue("log2_diff_max_min_pcm_luma_coding_block_size", in: 0...2)
            try reader.skip(1, "pcm_loop_filter_disabled_flag")
        }
        let shortTermSets = try reader.ue("num_short_term_ref_pic_sets", in: 0...64)
        var deltaPocCounts: [Int] = []
        for index in 0..<shortTermSets {
            deltaPocCounts.append(try Self.skipShortTermRefPicSet(&reader, index: index, counts: deltaPocCounts))
        }
        if try reader.flag("long_term_ref_pics_present_flag") {
            let count = try reader.ue("num_long_term_ref_pics_sps", in: 0...32)
            for _ in 0..<count { try reader.skip(log2MaxPicOrderCountLSB + 1, "lt_ref_pic_poc_lsb_sps, used_by_curr_pic_lt_sps_flag") }
        }
        try reader.skip(2, "sps_temporal_mvp_enabled_flag, strong_intra_smoothing_enabled_flag")
        if try reader.flag("vui_parameters_present_flag") {
            vui = try HEVCVUI(reading: &reader, maxSubLayersMinus1: maxSubLayersMinus1)
        }
    }

    /// The conformance window's units: SubWidthC and SubHeightC (ITU-T H.265 table 6-1).
    private var cropUnits: (Int, Int) {
        if chromaFormatIdc == 0 || separateColourPlane { return (1, 1) }
        return (chromaFormatIdc == 3 ? 1 : 2, chromaFormatIdc == 1 ? 2 : 1)
    }

    /// The displayed width: the coded width less the conformance window.
    public var width: Int { codedWidth - (conformanceWindow[0] + conformanceWindow[1]) * cropUnits.0 }

    /// The displayed height: the coded height less the conformance window.
    public var height: Int { codedHeight - (conformanceWindow[2] + conformanceWindow[3]) * cropUnits.1 }

    /// Frames per second from the VUI's timing, when present.
    public var frameRate: Double? { vui?.frameRate }

    /// Skips `scaling_list_data()` (ITU-T H.265 7.3.4).
    private static func skipScalingListData(_ reader: inout H264BitReader) throws(BitstreamError) {
        for sizeID in 0..<4 {
            for _ in stride(from: 0, to: 6, by: sizeID == 3 ? 3 : 1) {
                if !(try reader.flag("scaling_list_pred_mode_flag")) {
                    _ = try reader.ue("scaling_list_pred_matrix_id_delta", in: 0...5)
                } else {
                    if sizeID > 1 { _ = try reader.se("scaling_list_dc_coef_minus8", in: -7...247) }
                    for _ in 0..<min(64, 1 << (4 + (sizeID << 1))) { _ = try reader.se("scaling_list_delta_coef", in: -128...127) }
                }
            }
        }
    }

    /// Skips `st_ref_pic_set(index)` in an SPS (ITU-T H.265 7.3.7) and returns its `NumDeltaPocs`;
    /// `counts` holds those of the sets before it.
    private static func skipShortTermRefPicSet(
        _ reader: inout H264BitReader, index: Int, counts: [Int]
    ) throws(BitstreamError) -> Int {
        if index != 0, try reader.flag("inter_ref_pic_set_prediction_flag") {
            try reader.skip(1, "delta_rps_sign")
            _ = try reader.ue("abs_delta_rps_minus1", in: 0...32_767)
            // In an SPS the reference set is the one just before (delta_idx_minus1 is 0).
            var count = 0
            for _ in 0...counts[index - 1] {
                let used = try reader.flag("used_by_curr_pic_flag")
                let useDelta = used ? true : try reader.flag("use_delta_flag")
                if used || useDelta { count += 1 }
            }
            return min(count, 32)
        }
        let negative = try reader.ue("num_negative_pics", in: 0...16)
        let positive = try reader.ue("num_positive_pics", in: 0...(16 - negative))
        for _ in 0..<(negative + positive) {
            _ = try reader.ue("delta_poc_minus1", in: 0...32_767)
            try reader.skip(1, "used_by_curr_pic_flag")
        }
        return negative + positive
    }
}
