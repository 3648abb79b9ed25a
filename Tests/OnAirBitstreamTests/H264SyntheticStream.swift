import OnAirBitstream

/// Writes small hand-made SPS, PPS and slice-header NAL units with `BitWriter`, for the stream
/// structures x264 never produces (field pictures, POC type 1, redundant slices, FMO, …).
enum H264SyntheticStream {
    /// SPS fields to write.
    struct SPS {
        var profileIdc: UInt8 = 100
        var constraintFlags: UInt8 = 0
        var levelIdc: UInt8 = 30
        var id = 0
        var chromaFormatIdc = 1
        var separateColourPlane = false
        var log2MaxFrameNum = 4
        var picOrderCntType = 0
        var log2MaxPicOrderCntLsb = 6
        var deltaPicOrderAlwaysZero = false
        var offsetsForRefFrame: [Int] = [2]
        var maxNumRefFrames = 2
        var widthInMbs = 4
        var heightInMapUnits = 3
        var frameMbsOnly = true
        var mbAdaptiveFrameField = false
        var crop: (left: Int, right: Int, top: Int, bottom: Int)?
        var timing: (numUnitsInTick: UInt32, timeScale: UInt32)?
    }

    /// PPS fields to write.
    struct PPS {
        var id = 0
        var spsId = 0
        var cabac = false
        var bottomFieldPicOrderInFramePresent = false
        var numSliceGroups = 1
        var sliceGroupMapType = 0
        var sliceGroupChangeRate = 1
        var weightedPred = false
        var weightedBipredIdc = 0
        var deblockingFilterControlPresent = true
        var redundantPicCntPresent = false
        var transform8x8Mode: Bool?
    }

    /// Slice header fields to write.
    struct Slice {
        var nalType: UInt8 = 1
        var nalRefIdc: UInt8 = 2
        var firstMb = 0
        var sliceType = 0
        var ppsId = 0
        var colourPlaneId = 0
        var frameNum = 0
        var fieldPic = false
        var bottomField = false
        var idrPicId = 0
        var picOrderCntLsb = 0
        var deltaPicOrderCntBottom = 0
        var deltaPicOrderCnt = (0, 0)
        var redundantPicCnt = 0
        var sliceId = 0
        var reorderList0 = false
        var memoryManagementOperations: [Int] = []
        var sliceQpDelta = 0
    }

    /// Makes a NAL unit from a header byte and an RBSP writer (adds trailing bits and escaping).
    static func unit(type: UInt8, refIdc: UInt8, _ writer: BitWriter) -> H264NALUnit {
        var writer = writer
        writer.writeTrailingBits()
        return try! H264NALUnit([refIdc << 5 | type] + EmulationPrevention.insert(writer.bytes))
    }

    /// Writes an SPS unit.
    static func sps(_ fields: SPS) -> H264NALUnit {
        var w = BitWriter()
        w.write(fields.profileIdc, bits: 8)
        w.write(fields.constraintFlags, bits: 8)
        w.write(fields.levelIdc, bits: 8)
        w.writeUE(UInt32(fields.id))
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135, 144].contains(fields.profileIdc) {
            w.writeUE(UInt32(fields.chromaFormatIdc))
            if fields.chromaFormatIdc == 3 { w.write(fields.separateColourPlane) }
            w.writeUE(0)
            w.writeUE(0)
            w.write(false)
            w.write(false)
        }
        w.writeUE(UInt32(fields.log2MaxFrameNum - 4))
        w.writeUE(UInt32(fields.picOrderCntType))
        if fields.picOrderCntType == 0 {
            w.writeUE(UInt32(fields.log2MaxPicOrderCntLsb - 4))
        } else if fields.picOrderCntType == 1 {
            w.write(fields.deltaPicOrderAlwaysZero)
            w.writeSE(-1)
            w.writeSE(0)
            w.writeUE(UInt32(fields.offsetsForRefFrame.count))
            for offset in fields.offsetsForRefFrame { w.writeSE(Int32(offset)) }
        }
        w.writeUE(UInt32(fields.maxNumRefFrames))
        w.write(false)
        w.writeUE(UInt32(fields.widthInMbs - 1))
        w.writeUE(UInt32(fields.heightInMapUnits - 1))
        w.write(fields.frameMbsOnly)
        if !fields.frameMbsOnly { w.write(fields.mbAdaptiveFrameField) }
        w.write(true)
        w.write(fields.crop != nil)
        if let crop = fields.crop {
            for value in [crop.left, crop.right, crop.top, crop.bottom] { w.writeUE(UInt32(value)) }
        }
        w.write(fields.timing != nil)
        if let timing = fields.timing {
            w.write(false)  // aspect ratio
            w.write(false)  // overscan
            w.write(false)  // video signal type
            w.write(false)  // chroma location
            w.write(true)
            w.write(timing.numUnitsInTick, bits: 32)
            w.write(timing.timeScale, bits: 32)
            w.write(true)
            w.write(false)  // NAL HRD
            w.write(false)  // VCL HRD
            w.write(false)  // pic_struct_present_flag
            w.write(false)  // bitstream_restriction_flag
        }
        return unit(type: 7, refIdc: 3, w)
    }

    /// Writes a PPS unit.
    static func pps(_ fields: PPS) -> H264NALUnit {
        var w = BitWriter()
        w.writeUE(UInt32(fields.id))
        w.writeUE(UInt32(fields.spsId))
        w.write(fields.cabac)
        w.write(fields.bottomFieldPicOrderInFramePresent)
        w.writeUE(UInt32(fields.numSliceGroups - 1))
        if fields.numSliceGroups > 1 {
            w.writeUE(UInt32(fields.sliceGroupMapType))
            if (3...5).contains(fields.sliceGroupMapType) {
                w.write(false)
                w.writeUE(UInt32(fields.sliceGroupChangeRate - 1))
            }
        }
        w.writeUE(0)
        w.writeUE(0)
        w.write(fields.weightedPred)
        w.write(UInt64(fields.weightedBipredIdc), bits: 2)
        w.writeSE(0)
        w.writeSE(0)
        w.writeSE(0)
        w.write(fields.deblockingFilterControlPresent)
        w.write(false)
        w.write(fields.redundantPicCntPresent)
        if let transform = fields.transform8x8Mode {
            w.write(transform)
            w.write(false)
            w.writeSE(0)
        }
        return unit(type: 8, refIdc: 3, w)
    }

    /// Writes a slice unit whose header follows `sps` and `pps`, with one byte of pretend slice data.
    static func slice(_ fields: Slice, sps: SPS, pps: PPS) -> H264NALUnit {
        var w = BitWriter()
        w.writeUE(UInt32(fields.firstMb))
        w.writeUE(UInt32(fields.sliceType))
        w.writeUE(UInt32(fields.ppsId))
        if sps.separateColourPlane { w.write(UInt64(fields.colourPlaneId), bits: 2) }
        w.write(UInt64(fields.frameNum), bits: sps.log2MaxFrameNum)
        if !sps.frameMbsOnly {
            w.write(fields.fieldPic)
            if fields.fieldPic { w.write(fields.bottomField) }
        }
        if fields.nalType == 5 { w.writeUE(UInt32(fields.idrPicId)) }
        if sps.picOrderCntType == 0 {
            w.write(UInt64(fields.picOrderCntLsb), bits: sps.log2MaxPicOrderCntLsb)
            if pps.bottomFieldPicOrderInFramePresent && !fields.fieldPic { w.writeSE(Int32(fields.deltaPicOrderCntBottom)) }
        }
        if sps.picOrderCntType == 1 && !sps.deltaPicOrderAlwaysZero {
            w.writeSE(Int32(fields.deltaPicOrderCnt.0))
            if pps.bottomFieldPicOrderInFramePresent && !fields.fieldPic { w.writeSE(Int32(fields.deltaPicOrderCnt.1)) }
        }
        if pps.redundantPicCntPresent { w.writeUE(UInt32(fields.redundantPicCnt)) }
        if fields.nalType == 2 { w.writeUE(UInt32(fields.sliceId)) }
        let kind = fields.sliceType % 5
        if kind == 1 { w.write(true) }  // direct_spatial_mv_pred_flag
        if kind == 0 || kind == 1 || kind == 3 { w.write(false) }  // num_ref_idx_active_override_flag
        if kind != 2 && kind != 4 {
            w.write(fields.reorderList0)
            if fields.reorderList0 {
                w.writeUE(0)  // modification_of_pic_nums_idc: subtract
                w.writeUE(0)  // abs_diff_pic_num_minus1
                w.writeUE(3)
            }
        }
        if kind == 1 { w.write(false) }
        if (pps.weightedPred && (kind == 0 || kind == 3)) || (pps.weightedBipredIdc == 1 && kind == 1) {
            w.writeUE(5)  // luma_log2_weight_denom
            if sps.chromaFormatIdc != 0 && !sps.separateColourPlane { w.writeUE(5) }
            w.write(true)  // luma_weight_l0_flag for the single reference
            w.writeSE(40)
            w.writeSE(-3)
            if sps.chromaFormatIdc != 0 && !sps.separateColourPlane { w.write(false) }
            if kind == 1 {
                w.write(false)
                if sps.chromaFormatIdc != 0 && !sps.separateColourPlane { w.write(false) }
            }
        }
        if fields.nalRefIdc != 0 {
            if fields.nalType == 5 {
                w.write(false)
                w.write(false)
            } else {
                w.write(!fields.memoryManagementOperations.isEmpty)
                if !fields.memoryManagementOperations.isEmpty {
                    for operation in fields.memoryManagementOperations {
                        w.writeUE(UInt32(operation))
                        if operation == 1 || operation == 3 { w.writeUE(0) }
                        if operation == 2 { w.writeUE(0) }
                        if operation == 3 || operation == 6 { w.writeUE(0) }
                        if operation == 4 { w.writeUE(1) }
                    }
                    w.writeUE(0)
                }
            }
        }
        if pps.cabac && kind != 2 && kind != 4 { w.writeUE(0) }
        w.writeSE(Int32(fields.sliceQpDelta))
        if kind == 3 || kind == 4 {
            if kind == 3 { w.write(false) }
            w.writeSE(0)
        }
        if pps.deblockingFilterControlPresent {
            w.writeUE(0)
            w.writeSE(1)
            w.writeSE(-1)
        }
        if pps.numSliceGroups > 1 && (3...5).contains(pps.sliceGroupMapType) {
            let mapUnits = sps.widthInMbs * sps.heightInMapUnits
            var bits = 0
            while (pps.sliceGroupChangeRate << bits) < mapUnits + pps.sliceGroupChangeRate { bits += 1 }
            w.write(UInt64(1), bits: bits)
        }
        w.write(0xA5, bits: 8)
        return unit(type: fields.nalType, refIdc: fields.nalRefIdc, w)
    }
}
