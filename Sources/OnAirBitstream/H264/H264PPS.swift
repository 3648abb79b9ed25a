/// A parsed H.264 picture parameter set (ITU-T H.264 7.3.2.2, `pic_parameter_set_rbsp()`).
package struct H264PPS: Sendable, Equatable {
    /// `pic_parameter_set_id` (0…255).
    public var id: Int = 0
    /// `seq_parameter_set_id` of the SPS this PPS refers to (0…31).
    public var spsId: Int = 0
    /// `entropy_coding_mode_flag`: CABAC when true, CAVLC when false.
    public var entropyCodingModeFlag: Bool = false
    /// `bottom_field_pic_order_in_frame_present_flag` (formerly `pic_order_present_flag`).
    public var bottomFieldPicOrderInFramePresent: Bool = false
    /// `num_slice_groups_minus1 + 1` (1…8).
    public var numSliceGroups: Int = 1
    /// `slice_group_map_type` (0…6) when there is more than one slice group.
    public var sliceGroupMapType: Int?
    /// `slice_group_change_rate_minus1 + 1` for slice group map types 3…5.
    public var sliceGroupChangeRate: Int?
    /// `num_ref_idx_l0_default_active_minus1 + 1` (1…32).
    public var numRefIdxL0DefaultActive: Int = 1
    /// `num_ref_idx_l1_default_active_minus1 + 1` (1…32).
    public var numRefIdxL1DefaultActive: Int = 1
    /// `weighted_pred_flag`: explicit weighted prediction in P and SP slices.
    public var weightedPred: Bool = false
    /// `weighted_bipred_idc` (0…2).
    public var weightedBipredIdc: Int = 0
    /// `pic_init_qp_minus26 + 26`.
    public var picInitQp: Int = 26
    /// `pic_init_qs_minus26 + 26`.
    public var picInitQs: Int = 26
    /// `chroma_qp_index_offset` (−12…12).
    public var chromaQpIndexOffset: Int = 0
    /// `deblocking_filter_control_present_flag`.
    public var deblockingFilterControlPresent: Bool = false
    /// `constrained_intra_pred_flag`.
    public var constrainedIntraPred: Bool = false
    /// `redundant_pic_cnt_present_flag`.
    public var redundantPicCntPresent: Bool = false
    /// `transform_8x8_mode_flag` (false when the RBSP ends before the High-profile fields).
    public var transform8x8Mode: Bool = false
    /// The picture scaling lists, when `pic_scaling_matrix_present_flag` is set.
    public var scalingLists: [H264ScalingList]?
    /// `second_chroma_qp_index_offset` (equal to `chromaQpIndexOffset` when not coded).
    public var secondChromaQpIndexOffset: Int = 0

    /// Parses a PPS NAL unit (type 8). `spsLookup` returns the SPS with a given id, if known.
    ///
    /// The SPS is needed only for the range of `pic_init_qp_minus26` (its luma bit depth) and for
    /// the number of scaling lists when a 4:4:4 stream's PPS carries 8x8 lists; without it the
    /// first check assumes the widest range and the second throws `unsupported`.
    public init(_ unit: H264NALUnit, spsLookup: (Int) -> H264SPS? = { _ in nil }) throws(BitstreamError) {
        guard unit.type == .pps else {
            throw BitstreamError.malformed("expected a PPS NAL unit, got \(unit.type)")
        }
        try self.init(rbsp: unit.rbsp, spsLookup: spsLookup)
    }

    /// Parses `pic_parameter_set_rbsp()` from an RBSP (see `init(_:spsLookup:)`).
    public init(rbsp: [UInt8], spsLookup: (Int) -> H264SPS? = { _ in nil }) throws(BitstreamError) {
        var reader = H264BitReader(rbsp)
        id = try reader.ue("pic_parameter_set_id", in: 0...255)
        spsId = try reader.ue("seq_parameter_set_id", in: 0...31)
        let sps = spsLookup(spsId)
        entropyCodingModeFlag = try reader.flag("entropy_coding_mode_flag")
        bottomFieldPicOrderInFramePresent = try reader.flag("bottom_field_pic_order_in_frame_present_flag")
        numSliceGroups = try reader.ue("num_slice_groups_minus1", in: 0...7) + 1
        if numSliceGroups > 1 {
            try parseSliceGroups(&reader)
        }
        numRefIdxL0DefaultActive = try reader.ue("num_ref_idx_l0_default_active_minus1", in: 0...31) + 1
        numRefIdxL1DefaultActive = try reader.ue("num_ref_idx_l1_default_active_minus1", in: 0...31) + 1
        weightedPred = try reader.flag("weighted_pred_flag")
        weightedBipredIdc = try reader.bits(2, "weighted_bipred_idc")
        guard weightedBipredIdc <= 2 else {
            throw BitstreamError.invalidValue(field: "weighted_bipred_idc", value: Int64(weightedBipredIdc), allowed: "0...2")
        }
        let qpBdOffset = 6 * ((sps?.bitDepthLuma ?? 14) - 8)
        picInitQp = try reader.se("pic_init_qp_minus26", in: -(26 + qpBdOffset)...25) + 26
        picInitQs = try reader.se("pic_init_qs_minus26", in: -26...25) + 26
        chromaQpIndexOffset = try reader.se("chroma_qp_index_offset", in: -12...12)
        secondChromaQpIndexOffset = chromaQpIndexOffset
        deblockingFilterControlPresent = try reader.flag("deblocking_filter_control_present_flag")
        constrainedIntraPred = try reader.flag("constrained_intra_pred_flag")
        redundantPicCntPresent = try reader.flag("redundant_pic_cnt_present_flag")
        if reader.moreRBSPData {
            transform8x8Mode = try reader.flag("transform_8x8_mode_flag")
            if try reader.flag("pic_scaling_matrix_present_flag") {
                let count8x8: Int
                if !transform8x8Mode {
                    count8x8 = 0
                } else if let sps {
                    count8x8 = sps.chromaFormatIdc == 3 ? 6 : 2
                } else {
                    throw BitstreamError.unsupported("PPS \(id) scaling matrix without SPS \(spsId)")
                }
                scalingLists = try H264ScalingList.parseLists(&reader, count: 6 + count8x8, field: "pic_scaling_list")
            }
            secondChromaQpIndexOffset = try reader.se("second_chroma_qp_index_offset", in: -12...12)
        }
    }

    /// Reads the slice group map (FMO, Baseline and Extended profiles only).
    private mutating func parseSliceGroups(_ reader: inout H264BitReader) throws(BitstreamError) {
        let mapType = try reader.ue("slice_group_map_type", in: 0...6)
        sliceGroupMapType = mapType
        switch mapType {
        case 0:
            for _ in 0..<numSliceGroups {
                _ = try reader.ue("run_length_minus1")
            }
        case 2:
            for _ in 0..<(numSliceGroups - 1) {
                _ = try reader.ue("top_left")
                _ = try reader.ue("bottom_right")
            }
        case 3, 4, 5:
            _ = try reader.flag("slice_group_change_direction_flag")
            sliceGroupChangeRate = try reader.ue("slice_group_change_rate_minus1") + 1
        case 6:
            let mapUnits = try reader.ue("pic_size_in_map_units_minus1") + 1
            let bitsPerId = H264Math.ceilLog2(numSliceGroups)
            // Bounded by the RBSP itself: each id is at least one bit (numSliceGroups > 1).
            guard mapUnits <= reader.bitsLeft / max(bitsPerId, 1) else {
                throw BitstreamError.truncated("slice_group_id")
            }
            try reader.skip(mapUnits * bitsPerId, "slice_group_id")
        default:
            break
        }
    }
}
