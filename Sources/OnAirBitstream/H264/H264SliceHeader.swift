/// A parsed H.264 slice header (ITU-T H.264 7.3.3, `slice_header()`), read from a slice NAL unit
/// of type 1 (non-IDR), 2 (data partition A) or 5 (IDR) with the SPS and PPS it refers to.
public struct H264SliceHeader: Sendable, Equatable {
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
            throw BitstreamError.invalidValue(field: "slice_type of an IDR slice", value: Int64(sliceTypeRaw),
                                              allowed: "2, 4, 7 or 9")
        }
        ppsId = try reader.ue("pic_parameter_set_id", in: 0...255)
        let (sps, pps) = try parameterSets.active(ppsId: ppsId)
        guard firstMbInSlice < sps.picWidthInMbs * sps.frameHeightInMbs else {
            throw BitstreamError.invalidValue(field: "first_mb_in_slice", value: Int64(firstMbInSlice),
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
    private mutating func parsePictureIdentification(_ reader: inout H264BitReader, sps: H264SPS,
                                                     pps: H264PPS) throws(BitstreamError) {
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

    /// Reads direct prediction, reference counts, list modification, weights and reference marking.
    private mutating func parsePrediction(_ reader: inout H264BitReader, sps: H264SPS,
                                          pps: H264PPS) throws(BitstreamError) {
        if sliceType == .b {
            directSpatialMvPred = try reader.flag("direct_spatial_mv_pred_flag")
        }
        if !sliceType.isIntra {
            numRefIdxL0Active = pps.numRefIdxL0DefaultActive
            numRefIdxL1Active = sliceType == .b ? pps.numRefIdxL1DefaultActive : 0
            if try reader.flag("num_ref_idx_active_override_flag") {
                numRefIdxL0Active = try reader.ue("num_ref_idx_l0_active_minus1", in: 0...31) + 1
                if sliceType == .b {
                    numRefIdxL1Active = try reader.ue("num_ref_idx_l1_active_minus1", in: 0...31) + 1
                }
            }
        }
        if !sliceType.isIntra {
            refPicListModified = try Self.skipRefPicListModification(&reader, list: 0)
        }
        if sliceType == .b {
            refPicListModified = try Self.skipRefPicListModification(&reader, list: 1) || refPicListModified
        }
        let explicitWeights = pps.weightedPred && (sliceType == .p || sliceType == .sp)
        if explicitWeights || (pps.weightedBipredIdc == 1 && sliceType == .b) {
            hasPredWeightTable = true
            try skipPredWeightTable(&reader, chromaArrayType: sps.chromaArrayType)
        }
        if nalRefIdc != 0 {
            try parseDecRefPicMarking(&reader)
        }
    }

    /// Reads CABAC init, QP deltas, deblocking controls and the slice group change cycle.
    private mutating func parseTail(_ reader: inout H264BitReader, sps: H264SPS, pps: H264PPS) throws(BitstreamError) {
        if pps.entropyCodingModeFlag && !sliceType.isIntra {
            cabacInitIdc = try reader.ue("cabac_init_idc", in: 0...2)
        }
        let qpBdOffset = 6 * (sps.bitDepthLuma - 8)
        sliceQpDelta = try reader.se("slice_qp_delta", in: -(87 + qpBdOffset)...87)
        if sliceType == .sp || sliceType == .si {
            if sliceType == .sp {
                spForSwitch = try reader.flag("sp_for_switch_flag")
            }
            sliceQsDelta = try reader.se("slice_qs_delta", in: -51...51)
        }
        if pps.deblockingFilterControlPresent {
            disableDeblockingFilterIdc = try reader.ue("disable_deblocking_filter_idc", in: 0...2)
            if disableDeblockingFilterIdc != 1 {
                sliceAlphaC0OffsetDiv2 = try reader.se("slice_alpha_c0_offset_div2", in: -6...6)
                sliceBetaOffsetDiv2 = try reader.se("slice_beta_offset_div2", in: -6...6)
            }
        }
        if pps.numSliceGroups > 1, let mapType = pps.sliceGroupMapType, (3...5).contains(mapType),
           let rate = pps.sliceGroupChangeRate {
            // Ceil(Log2(PicSizeInMapUnits ÷ SliceGroupChangeRate + 1)), with exact division.
            let mapUnits = sps.picSizeInMapUnits
            var bits = 0
            while bits < 32 && (rate << bits) < mapUnits + rate { bits += 1 }
            sliceGroupChangeCycle = try reader.bits(bits, "slice_group_change_cycle")
        }
    }

    /// Skips `ref_pic_list_modification()` for one list; returns whether the list is modified.
    private static func skipRefPicListModification(_ reader: inout H264BitReader, list: Int) throws(BitstreamError) -> Bool {
        guard try reader.flag("ref_pic_list_modification_flag_l\(list)") else { return false }
        // At most one modification per reference index (32) plus the terminating 3.
        for _ in 0...32 {
            let idc = try reader.ue("modification_of_pic_nums_idc", in: 0...3)
            switch idc {
            case 0, 1: _ = try reader.ue("abs_diff_pic_num_minus1")
            case 2: _ = try reader.ue("long_term_pic_num")
            default: return true
            }
        }
        throw BitstreamError.malformed("ref_pic_list_modification for list \(list) has more than 32 entries")
    }

    /// Skips `pred_weight_table()`.
    private func skipPredWeightTable(_ reader: inout H264BitReader, chromaArrayType: Int) throws(BitstreamError) {
        _ = try reader.ue("luma_log2_weight_denom", in: 0...7)
        if chromaArrayType != 0 {
            _ = try reader.ue("chroma_log2_weight_denom", in: 0...7)
        }
        let lists = sliceType == .b ? [numRefIdxL0Active, numRefIdxL1Active] : [numRefIdxL0Active]
        for count in lists {
            for _ in 0..<count {
                if try reader.flag("luma_weight_flag") {
                    _ = try reader.se("luma_weight", in: -128...127)
                    _ = try reader.se("luma_offset", in: -128...127)
                }
                if chromaArrayType != 0, try reader.flag("chroma_weight_flag") {
                    for _ in 0..<2 {
                        _ = try reader.se("chroma_weight", in: -128...127)
                        _ = try reader.se("chroma_offset", in: -128...127)
                    }
                }
            }
        }
    }

    /// Reads `dec_ref_pic_marking()`.
    private mutating func parseDecRefPicMarking(_ reader: inout H264BitReader) throws(BitstreamError) {
        if isIDR {
            noOutputOfPriorPics = try reader.flag("no_output_of_prior_pics_flag")
            longTermReference = try reader.flag("long_term_reference_flag")
            return
        }
        guard try reader.flag("adaptive_ref_pic_marking_mode_flag") else { return }
        // The spec bounds the list by the DPB size; 66 leaves room for every frame and field.
        for _ in 0..<66 {
            let operation = try reader.ue("memory_management_control_operation", in: 0...6)
            if operation == 0 { return }
            memoryManagementOperations.append(operation)
            if operation == 1 || operation == 3 {
                _ = try reader.ue("difference_of_pic_nums_minus1")
            }
            if operation == 2 {
                _ = try reader.ue("long_term_pic_num")
            }
            if operation == 3 || operation == 6 {
                _ = try reader.ue("long_term_frame_idx")
            }
            if operation == 4 {
                _ = try reader.ue("max_long_term_frame_idx_plus1")
            }
        }
        throw BitstreamError.malformed("dec_ref_pic_marking has more than 66 operations")
    }
}
