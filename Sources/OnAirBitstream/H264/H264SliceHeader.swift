/// A parsed H.264 slice header (ITU-T H.264 7.3.3, `slice_header()`), read from a slice NAL unit
/// of type 1 (non-IDR), 2 (data partition A) or 5 (IDR) with the SPS and PPS it refers to.
package struct H264SliceHeader: Sendable, Equatable {
    /// `nal_unit_type` of the unit the header came from.
    public var nalType: H264NALUnitType = .slice
    /// `nal_ref_idc` of the unit the header came from.
    public var nalRefIdc: UInt8 = 0
    /// `first_mb_in_slice`.
    public var firstMbInSlice: Int = 0
    /// `slice_type` as coded (0…9; 5…9 promise every slice of the picture has the same type).
    public var sliceTypeRaw: Int = 0
    /// `slice_type % 5`.
    public var sliceType: H264SliceType = .p
    /// `pic_parameter_set_id`.
    public var ppsId: Int = 0
    /// `colour_plane_id` (separate colour planes only).
    public var colourPlaneId: Int?
    /// `frame_num`.
    public var frameNum: Int = 0
    /// `field_pic_flag`: the slice belongs to a field, not a frame.
    public var fieldPic: Bool = false
    /// `bottom_field_flag`: the field is the bottom one (only with `fieldPic`).
    public var bottomField: Bool = false
    /// `idr_pic_id` (IDR slices only).
    public var idrPicId: Int?
    /// `pic_order_cnt_lsb` (`pic_order_cnt_type` 0 only).
    public var picOrderCntLsb: Int?
    /// `delta_pic_order_cnt_bottom` (`pic_order_cnt_type` 0, frames with the PPS flag only).
    public var deltaPicOrderCntBottom: Int?
    /// `delta_pic_order_cnt[0]` (`pic_order_cnt_type` 1 without `delta_pic_order_always_zero_flag`).
    public var deltaPicOrderCnt0: Int?
    /// `delta_pic_order_cnt[1]` (as `deltaPicOrderCnt0`, frames with the PPS flag only).
    public var deltaPicOrderCnt1: Int?
    /// `redundant_pic_cnt` (when the PPS allows redundant pictures); above 0 marks a redundant slice.
    public var redundantPicCnt: Int?
    /// `slice_id` (data partition A only).
    public var sliceId: Int?
    /// `direct_spatial_mv_pred_flag` (B slices only).
    public var directSpatialMvPred: Bool?
    /// The active number of list 0 references (0 for I and SI slices).
    public var numRefIdxL0Active: Int = 0
    /// The active number of list 1 references (0 unless B).
    public var numRefIdxL1Active: Int = 0
    /// Whether `ref_pic_list_modification()` reorders either list.
    public var refPicListModified: Bool = false
    /// Whether `pred_weight_table()` is present.
    public var hasPredWeightTable: Bool = false
    /// `no_output_of_prior_pics_flag` (IDR slices only).
    public var noOutputOfPriorPics: Bool?
    /// `long_term_reference_flag` (IDR slices only).
    public var longTermReference: Bool?
    /// The `memory_management_control_operation`s in order (non-IDR reference slices with adaptive
    /// marking only; the terminating 0 is not included).
    public var memoryManagementOperations: [Int] = []
    /// `cabac_init_idc` (CABAC P, SP and B slices only).
    public var cabacInitIdc: Int?
    /// `slice_qp_delta`.
    public var sliceQpDelta: Int = 0
    /// `sp_for_switch_flag` (SP slices only).
    public var spForSwitch: Bool?
    /// `slice_qs_delta` (SP and SI slices only).
    public var sliceQsDelta: Int?
    /// `disable_deblocking_filter_idc` (0 when not coded).
    public var disableDeblockingFilterIdc: Int = 0
    /// `slice_alpha_c0_offset_div2` (0 when not coded).
    public var sliceAlphaC0OffsetDiv2: Int = 0
    /// `slice_beta_offset_div2` (0 when not coded).
    public var sliceBetaOffsetDiv2: Int = 0
    /// `slice_group_change_cycle` (slice group map types 3…5 only).
    public var sliceGroupChangeCycle: Int?
    /// The length of the header in bits, counted from the start of the RBSP (slice data follows).
    public var bitLength: Int = 0

    /// Whether the slice belongs to an IDR picture.
    public var isIDR: Bool { nalType == .idr }

    /// Whether the slice contains memory_management_control_operation 5 (all references dropped).
    public var hasMMCO5: Bool { memoryManagementOperations.contains(5) }

    /// Parses the header of a slice unit using the SPS and PPS it refers to.
    ///
    /// Throws `unsupported` for NAL types other than 1, 2 and 5, and `invalidValue` when the PPS or
    /// its SPS is not in `parameterSets`.
    public init(_ unit: H264NALUnit, parameterSets: H264ParameterSets) throws(BitstreamError) {
        guard unit.type == .slice || unit.type == .idr || unit.type == .sliceDataA else {
            throw BitstreamError.unsupported("slice header in a \(unit.type) NAL unit")
        }
        nalType = unit.type
        nalRefIdc = unit.nalRefIdc
        if unit.type == .idr && unit.nalRefIdc == 0 {
            throw BitstreamError.invalidValue(field: "nal_ref_idc of an IDR slice", value: 0, allowed: "1...3")
        }
        // Slice headers are short: unescape only the start of the unit, and all of it if that is not enough.
        let prefixLength = 512
        if unit.bytes.count > prefixLength + 1 {
            do {
                try parse(EmulationPrevention.remove(unit.bytes[1...prefixLength]), parameterSets: parameterSets)
                return
            } catch .truncated(_) {
                // Fall through and parse the whole unit.
            }
        }
        try parse(unit.rbsp, parameterSets: parameterSets)
    }

    /// Parses the header fields from the slice RBSP.
    private mutating func parse(_ rbsp: [UInt8], parameterSets: H264ParameterSets) throws(BitstreamError) {
        var reader = H264BitReader(rbsp)
        memoryManagementOperations = []
        firstMbInSlice = try reader.ue("first_mb_in_slice")
        sliceTypeRaw = try reader.ue("slice_type", in: 0...9)
        sliceType = H264SliceType(rawValue: sliceTypeRaw % 5) ?? .p
        if isIDR && !sliceType.isIntra {
            throw BitstreamError.invalidValue(
                field: "slice_type of an IDR slice", value: Int64(sliceTypeRaw),
                allowed: "2, 4, 7 or 9")
        }
        ppsId = try reader.ue("pic_parameter_set_id", in: 0...255)
        let (sps, pps) = try parameterSets.active(ppsId: ppsId)
        guard firstMbInSlice < sps.picWidthInMbs * sps.frameHeightInMbs else {
            throw BitstreamError.invalidValue(
                field: "first_mb_in_slice", value: Int64(firstMbInSlice),
                allowed: "0..<\(sps.picWidthInMbs * sps.frameHeightInMbs)")
        }
        try parsePictureIdentification(&reader, sps: sps, pps: pps)
        if nalType == .sliceDataA {
            sliceId = try reader.ue("slice_id")
        }
        try parsePrediction(&reader, sps: sps, pps: pps)
        try parseTail(&reader, sps: sps, pps: pps)
        bitLength = reader.bitPosition
    }

    /// Reads the fields that tell pictures apart: colour plane, frame_num, field flags, idr_pic_id,
    /// picture order count fields and redundant_pic_cnt.
    private mutating func parsePictureIdentification(
        _ reader: inout H264BitReader, sps: H264SPS,
        pps: H264PPS
    ) throws(BitstreamError) {
        if sps.separateColourPlane {
            colourPlaneId = try reader.bits(2, "colour_plane_id")
        }
        frameNum = try reader.bits(sps.log2MaxFrameNum, "frame_num")
        if !sps.frameMbsOnly {
            fieldPic = try reader.flag("field_pic_flag")
            if fieldPic {
                bottomField = try reader.flag("bottom_field_flag")
            }
        }
        if isIDR {
            idrPicId = try reader.ue("idr_pic_id", in: 0...65535)
        }
        if sps.picOrderCntType == 0 {
            picOrderCntLsb = try reader.bits(sps.log2MaxPicOrderCntLsb, "pic_order_cnt_lsb")
            if pps.bottomFieldPicOrderInFramePresent && !fieldPic {
                deltaPicOrderCntBottom = try reader.se("delta_pic_order_cnt_bottom")
            }
        }
        if sps.picOrderCntType == 1 && !sps.deltaPicOrderAlwaysZero {
            deltaPicOrderCnt0 = try reader.se("delta_pic_order_cnt[0]")
            if pps.bottomFieldPicOrderInFramePresent && !fieldPic {
                deltaPicOrderCnt1 = try reader.se("delta_pic_order_cnt[1]")
            }
        }
        if pps.redundantPicCntPresent {
            redundantPicCnt = try reader.ue("redundant_pic_cnt", in: 0...127)
        }
    }
}
