/// The later parts of the slice header: prediction, reference marking, QP and deblocking fields.
extension H264SliceHeader {
    /// Reads direct prediction, reference counts, list modification, weights and reference marking.
    mutating func parsePrediction(
        _ reader: inout H264BitReader, sps: H264SPS,
        pps: H264PPS
    ) throws(BitstreamError) {
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
    mutating func parseTail(_ reader: inout H264BitReader, sps: H264SPS, pps: H264PPS) throws(BitstreamError) {
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
            let rate = pps.sliceGroupChangeRate
        {
            // Ceil(Log2(PicSizeInMapUnits ÷ SliceGroupChangeRate + 1)), with exact division.
            let mapUnits = sps.picSizeInMapUnits
            var bits = 0
            while bits < 32 && (rate << bits) < mapUnits + rate { bits += 1 }
            sliceGroupChangeCycle = try reader.bits(bits, "slice_group_change_cycle")
        }
    }

    /// Skips `ref_pic_list_modification()` for one list; returns whether the list is modified.
    static func skipRefPicListModification(_ reader: inout H264BitReader, list: Int) throws(BitstreamError) -> Bool {
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
    func skipPredWeightTable(_ reader: inout H264BitReader, chromaArrayType: Int) throws(BitstreamError) {
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
    mutating func parseDecRefPicMarking(_ reader: inout H264BitReader) throws(BitstreamError) {
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
