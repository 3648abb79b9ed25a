/// A parsed H.264 sequence parameter set (ITU-T H.264 7.3.2.1.1, `seq_parameter_set_data()`),
/// including the High-profile branch with scaling lists and the VUI.
///
/// Sizes, frame rate, profile name and level are derived in extensions.
package struct H264SPS: Sendable, Equatable {
    /// `profile_idc`.
    public var profileIdc: UInt8 = 0
    /// The byte holding `constraint_set0_flag` (most significant bit) … `constraint_set5_flag` and
    /// the two reserved zero bits.
    public var constraintFlags: UInt8 = 0
    /// `level_idc`.
    public var levelIdc: UInt8 = 0
    /// `seq_parameter_set_id` (0…31).
    public var id: Int = 0
    /// `chroma_format_idc`: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4 (1 when not coded).
    public var chromaFormatIdc: Int = 1
    /// `separate_colour_plane_flag`: 4:4:4 coded as three separate planes.
    public var separateColourPlane: Bool = false
    /// Luma bit depth, `bit_depth_luma_minus8 + 8` (8…14).
    public var bitDepthLuma: Int = 8
    /// Chroma bit depth, `bit_depth_chroma_minus8 + 8` (8…14).
    public var bitDepthChroma: Int = 8
    /// `qpprime_y_zero_transform_bypass_flag`: lossless coding allowed at QP′Y 0.
    public var qpprimeYZeroTransformBypass: Bool = false
    /// The sequence scaling lists, when `seq_scaling_matrix_present_flag` is set (6 4x4 lists, then
    /// 2 or 6 8x8 lists).
    public var scalingLists: [H264ScalingList]?
    /// `log2_max_frame_num_minus4 + 4` (4…16): the bit length of `frame_num`.
    public var log2MaxFrameNum: Int = 4
    /// `pic_order_cnt_type` (0…2).
    public var picOrderCntType: Int = 0
    /// `log2_max_pic_order_cnt_lsb_minus4 + 4` (4…16) when `picOrderCntType` is 0, else 0.
    public var log2MaxPicOrderCntLsb: Int = 0
    /// `delta_pic_order_always_zero_flag` (`picOrderCntType` 1 only).
    public var deltaPicOrderAlwaysZero: Bool = false
    /// `offset_for_non_ref_pic` (`picOrderCntType` 1 only).
    public var offsetForNonRefPic: Int = 0
    /// `offset_for_top_to_bottom_field` (`picOrderCntType` 1 only).
    public var offsetForTopToBottomField: Int = 0
    /// `offset_for_ref_frame[]` (`picOrderCntType` 1 only, at most 255 entries).
    public var offsetsForRefFrame: [Int] = []
    /// `max_num_ref_frames` (0…16).
    public var maxNumRefFrames: Int = 0
    /// `gaps_in_frame_num_value_allowed_flag`.
    public var gapsInFrameNumValueAllowed: Bool = false
    /// `pic_width_in_mbs_minus1 + 1`.
    public var picWidthInMbs: Int = 1
    /// `pic_height_in_map_units_minus1 + 1` (map units are frame MBs, or MB pairs when
    /// `frameMbsOnly` is false).
    public var picHeightInMapUnits: Int = 1
    /// `frame_mbs_only_flag`: no field or MBAFF coding.
    public var frameMbsOnly: Bool = true
    /// `mb_adaptive_frame_field_flag` (MBAFF).
    public var mbAdaptiveFrameField: Bool = false
    /// `direct_8x8_inference_flag`.
    public var direct8x8Inference: Bool = false
    /// `frame_crop_left_offset`, in crop units (see `cropUnitX`).
    public var frameCropLeft: Int = 0
    /// `frame_crop_right_offset`, in crop units (see `cropUnitX`).
    public var frameCropRight: Int = 0
    /// `frame_crop_top_offset`, in crop units (see `cropUnitY`).
    public var frameCropTop: Int = 0
    /// `frame_crop_bottom_offset`, in crop units (see `cropUnitY`).
    public var frameCropBottom: Int = 0
    /// The video usability information, when `vui_parameters_present_flag` is set.
    public var vui: H264VUI?

    /// Profiles whose SPS codes chroma format, bit depths and scaling matrices (7.3.2.1.1; 144 is
    /// the withdrawn original High 4:4:4 profile).
    static let highProfiles: Set<UInt8> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135, 144]

    /// The largest accepted `pic_width_in_mbs_minus1` / `pic_height_in_map_units_minus1`
    /// (32768 samples, well beyond level 6.2).
    static let maxMbDimensionMinus1 = 2047

    /// Parses an SPS NAL unit (type 7).
    public init(_ unit: H264NALUnit) throws(BitstreamError) {
        guard unit.type == .sps else {
            throw BitstreamError.malformed("expected an SPS NAL unit, got \(unit.type)")
        }
        try self.init(rbsp: unit.rbsp)
    }

    /// Parses `seq_parameter_set_data()` from an RBSP (the payload after the NAL header, with
    /// emulation-prevention bytes removed).
    public init(rbsp: [UInt8]) throws(BitstreamError) {
        var reader = H264BitReader(rbsp)
        profileIdc = UInt8(try reader.bits(8, "profile_idc"))
        constraintFlags = UInt8(try reader.bits(8, "constraint_set_flags"))
        levelIdc = UInt8(try reader.bits(8, "level_idc"))
        id = try reader.ue("seq_parameter_set_id", in: 0...31)
        if Self.highProfiles.contains(profileIdc) {
            try parseChromaAndScaling(&reader)
        }
        log2MaxFrameNum = try reader.ue("log2_max_frame_num_minus4", in: 0...12) + 4
        picOrderCntType = try reader.ue("pic_order_cnt_type", in: 0...2)
        if picOrderCntType == 0 {
            log2MaxPicOrderCntLsb = try reader.ue("log2_max_pic_order_cnt_lsb_minus4", in: 0...12) + 4
        } else if picOrderCntType == 1 {
            deltaPicOrderAlwaysZero = try reader.flag("delta_pic_order_always_zero_flag")
            offsetForNonRefPic = try reader.se("offset_for_non_ref_pic")
            offsetForTopToBottomField = try reader.se("offset_for_top_to_bottom_field")
            let cycle = try reader.ue("num_ref_frames_in_pic_order_cnt_cycle", in: 0...255)
            for _ in 0..<cycle {
                offsetsForRefFrame.append(try reader.se("offset_for_ref_frame"))
            }
        }
        maxNumRefFrames = try reader.ue("max_num_ref_frames", in: 0...16)
        gapsInFrameNumValueAllowed = try reader.flag("gaps_in_frame_num_value_allowed_flag")
        picWidthInMbs = try reader.ue("pic_width_in_mbs_minus1", in: 0...Self.maxMbDimensionMinus1) + 1
        picHeightInMapUnits = try reader.ue("pic_height_in_map_units_minus1", in: 0...Self.maxMbDimensionMinus1) + 1
        frameMbsOnly = try reader.flag("frame_mbs_only_flag")
        if !frameMbsOnly {
            mbAdaptiveFrameField = try reader.flag("mb_adaptive_frame_field_flag")
        }
        direct8x8Inference = try reader.flag("direct_8x8_inference_flag")
        if try reader.flag("frame_cropping_flag") {
            try parseCropping(&reader)
        }
        if try reader.flag("vui_parameters_present_flag") {
            vui = try H264VUI(&reader)
        }
    }

    /// Reads the High-profile fields: chroma format, bit depths, transform bypass, scaling matrix.
    private mutating func parseChromaAndScaling(_ reader: inout H264BitReader) throws(BitstreamError) {
        chromaFormatIdc = try reader.ue("chroma_format_idc", in: 0...3)
        if chromaFormatIdc == 3 {
            separateColourPlane = try reader.flag("separate_colour_plane_flag")
        }
        bitDepthLuma = try reader.ue("bit_depth_luma_minus8", in: 0...6) + 8
        bitDepthChroma = try reader.ue("bit_depth_chroma_minus8", in: 0...6) + 8
        qpprimeYZeroTransformBypass = try reader.flag("qpprime_y_zero_transform_bypass_flag")
        if try reader.flag("seq_scaling_matrix_present_flag") {
            let count = chromaFormatIdc == 3 ? 12 : 8
            scalingLists = try H264ScalingList.parseLists(&reader, count: count, field: "seq_scaling_list")
        }
    }

    /// Reads the four crop offsets and checks that they leave a picture of at least one sample.
    private mutating func parseCropping(_ reader: inout H264BitReader) throws(BitstreamError) {
        frameCropLeft = try reader.ue("frame_crop_left_offset")
        frameCropRight = try reader.ue("frame_crop_right_offset")
        frameCropTop = try reader.ue("frame_crop_top_offset")
        frameCropBottom = try reader.ue("frame_crop_bottom_offset")
        let horizontal = (frameCropLeft + frameCropRight) * cropUnitX
        guard horizontal < codedWidth else {
            throw BitstreamError.invalidValue(
                field: "frame_crop_left_offset + frame_crop_right_offset",
                value: Int64(frameCropLeft + frameCropRight),
                allowed: "0...\((codedWidth - 1) / cropUnitX)")
        }
        let vertical = (frameCropTop + frameCropBottom) * cropUnitY
        guard vertical < codedHeight else {
            throw BitstreamError.invalidValue(
                field: "frame_crop_top_offset + frame_crop_bottom_offset",
                value: Int64(frameCropTop + frameCropBottom),
                allowed: "0...\((codedHeight - 1) / cropUnitY)")
        }
    }
}
