/// The parts of an HEVC SPS's `vui_parameters()` (ITU-T H.265 E.2.1) that describe the picture
/// and its timing.
public struct HEVCVUI: Sendable, Hashable {
    /// The sample aspect ratio's width: from table E-1 or `sar_width`; 0 when unknown.
    public var sarWidth = 0
    /// The sample aspect ratio's height: from table E-1 or `sar_height`; 0 when unknown.
    public var sarHeight = 0
    /// `video_full_range_flag`, when the signal type is present.
    public var fullRange: Bool?
    /// `colour_primaries`, `transfer_characteristics` and `matrix_coeffs`, when present.
    public var colourDescription: [Int]?
    /// `vui_num_units_in_tick`, when timing is present.
    public var numUnitsInTick: UInt32?
    /// `vui_time_scale`, when timing is present.
    public var timeScale: UInt32?
    /// Whether HRD parameters are present.
    public var hasHRD = false
    /// `min_spatial_segmentation_idc` from the bitstream restrictions (0 when absent).
    public var minSpatialSegmentation = 0

    /// Frames per second from the timing information (`time_scale / num_units_in_tick`; an HEVC
    /// tick is one picture, not a field as in H.264), when it is present and non-zero.
    public var frameRate: Double? {
        guard let numUnitsInTick, let timeScale, numUnitsInTick > 0, timeScale > 0 else { return nil }
        return Double(timeScale) / Double(numUnitsInTick)
    }

    /// Reads `vui_parameters()` for an SPS with `maxSubLayersMinus1`.
    init(reading reader: inout H264BitReader, maxSubLayersMinus1: Int) throws(BitstreamError) {
        if try reader.flag("aspect_ratio_info_present_flag") {
            let idc = try reader.bits(8, "aspect_ratio_idc")
            if idc == Int(H264VUI.extendedSAR) {
                sarWidth = try reader.bits(16, "sar_width")
                sarHeight = try reader.bits(16, "sar_height")
            } else if idc >= 1, idc <= H264VUI.sampleAspectRatios.count {
                (sarWidth, sarHeight) = H264VUI.sampleAspectRatios[idc - 1]
            }
        }
        if try reader.flag("overscan_info_present_flag") { try reader.skip(1, "overscan_appropriate_flag") }
        if try reader.flag("video_signal_type_present_flag") {
            try reader.skip(3, "video_format")
            fullRange = try reader.flag("video_full_range_flag")
            if try reader.flag("colour_description_present_flag") {
                colourDescription = [
                    try reader.bits(8, "colour_primaries"), try reader.bits(8, "transfer_characteristics"),
                    try reader.bits(8, "matrix_coeffs"),
                ]
            }
        }
        if try reader.flag("chroma_loc_info_present_flag") {
            _ = try reader.ue("chroma_sample_loc_type_top_field", in: 0...5)
            _ = try reader.ue("chroma_sample_loc_type_bottom_field", in: 0...5)
        }
        try reader.skip(3, "neutral_chroma_indication_flag, field_seq_flag, frame_field_info_present_flag")
        if try reader.flag("default_display_window_flag") {
            for field in ["left", "right", "top", "bottom"] { _ = try reader.ue("def_disp_win_\(field)_offset") }
        }
        if try reader.flag("vui_timing_info_present_flag") {
            numUnitsInTick = UInt32(try reader.bits(32, "vui_num_units_in_tick"))
            timeScale = UInt32(try reader.bits(32, "vui_time_scale"))
            if try reader.flag("vui_poc_proportional_to_timing_flag") { _ = try reader.ue("vui_num_ticks_poc_diff_one_minus1") }
            if try reader.flag("vui_hrd_parameters_present_flag") {
                hasHRD = true
                try Self.skipHRD(&reader, maxSubLayersMinus1: maxSubLayersMinus1)
            }
        }
        if try reader.flag("bitstream_restriction_flag") {
            try reader.skip(3, "tiles_fixed_structure_flag … restricted_ref_pic_lists_flag")
            minSpatialSegmentation = try reader.ue("min_spatial_segmentation_idc", in: 0...4095)
            let fields = [
                "max_bytes_per_pic_denom", "max_bits_per_min_cu_denom", "log2_max_mv_length_horizontal",
                "log2_max_mv_length_vertical",
            ]
            for field in fields {
                _ = try reader.ue(field, in: 0...16)
            }
        }
    }

    /// Skips `hrd_parameters(1, maxSubLayersMinus1)` (ITU-T H.265 E.2.2).
    private static func skipHRD(_ reader: inout H264BitReader, maxSubLayersMinus1: Int) throws(BitstreamError) {
        let nal = try reader.flag("nal_hrd_parameters_present_flag")
        let vcl = try reader.flag("vcl_hrd_parameters_present_flag")
        var subPicture = false
        if nal || vcl {
            subPicture = try reader.flag("sub_pic_hrd_params_present_flag")
            if subPicture { try reader.skip(8 + 5 + 1 + 5, "sub-picture HRD parameters") }
            try reader.skip(8, "bit_rate_scale, cpb_size_scale")
            if subPicture { try reader.skip(4, "cpb_size_du_scale") }
            try reader.skip(15, "HRD delay lengths")
        }
        for _ in 0...maxSubLayersMinus1 {
            var fixedWithinCVS = true
            if !(try reader.flag("fixed_pic_rate_general_flag")) { fixedWithinCVS = try reader.flag("fixed_pic_rate_within_cvs_flag") }
            var lowDelay = false
            if fixedWithinCVS {
                _ = try reader.ue("elemental_duration_in_tc_minus1", in: 0...2047)
            } else {
                lowDelay = try reader.flag("low_delay_hrd_flag")
            }
            let cpbCount = lowDelay ? 1 : try reader.ue("cpb_cnt_minus1", in: 0...31) + 1
            for _ in 0..<((nal ? 1 : 0) + (vcl ? 1 : 0)) {
                for _ in 0..<cpbCount {
                    _ = try reader.ue("bit_rate_value_minus1")
                    _ = try reader.ue("cpb_size_value_minus1")
                    if subPicture {
                        _ = try reader.ue("cpb_size_du_value_minus1")
                        _ = try reader.ue("bit_rate_du_value_minus1")
                    }
                    try reader.skip(1, "cbr_flag")
                }
            }
        }
    }
}
