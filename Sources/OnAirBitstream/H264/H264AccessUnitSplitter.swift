/// Groups H.264 NAL units into access units as they arrive (ITU-T H.264 7.4.1.2.3 and 7.4.1.2.4).
///
/// A new access unit starts at the first VCL unit of a new primary coded picture, found by
/// comparing its slice header with the previous primary slice (`frame_num`, PPS id, field and
/// bottom flags, `nal_ref_idc` zero-ness, picture order count fields, IDR flag and `idr_pic_id`),
/// or earlier, at the first AUD, SPS, PPS, SEI or type 14…18 unit that follows the last VCL unit
/// of a picture. Non-VCL units seen after a slice are held until the next slice shows whether
/// they open a new access unit (an SPS or PPS may sit between two slices of one picture).
///
/// Units that fail to parse are counted in `damagedUnits` and kept in their access unit.
package struct H264AccessUnitSplitter: Sendable {
    /// The parameter sets seen so far, used to parse slice headers.
    public var parameterSets = H264ParameterSets()
    /// The number of units so far that failed to parse (SPS, PPS or slice header).
    public private(set) var damagedUnits = 0

    /// The access unit being built.
    private var current = H264AccessUnit()
    /// The last primary slice header of `current`, the reference for new-picture detection.
    private var lastPrimarySlice: H264SliceHeader?
    /// Units after the last slice of `current` that may open the next access unit.
    private var pending: [H264NALUnit] = []
    /// Damaged units among `pending`.
    private var pendingDamaged = 0
    /// The first slice and field status of the last access unit handed out.
    private var previousPicture: (slice: H264SliceHeader, isSecondField: Bool)?

    /// Creates a splitter with no parameter sets.
    public init() {}

    /// Adds one unit; returns the access units it completed (zero or one).
    public mutating func push(_ unit: H264NALUnit) -> [H264AccessUnit] {
        let type = unit.type
        var damaged = false
        if type == .sps || type == .pps {
            do {
                try parameterSets.update(with: unit)
            } catch {
                damaged = true
            }
        }
        if type.isVCL {
            return pushVCL(unit)
        }
        if damaged { damagedUnits += 1 }
        if current.hasVCL && type == .accessUnitDelimiter {
            let completed = takeCurrent()
            current.units = pending + [unit]
            current.damagedUnits = pendingDamaged + (damaged ? 1 : 0)
            pending = []
            pendingDamaged = 0
            return completed
        }
        if !pending.isEmpty || (current.hasVCL && type.startsAccessUnit) {
            pending.append(unit)
            pendingDamaged += damaged ? 1 : 0
        } else {
            current.units.append(unit)
            current.damagedUnits += damaged ? 1 : 0
        }
        return []
    }

    /// Hands out what is left: the access unit being built and, if units followed its last
    /// slice, an access unit of those units alone.
    public mutating func finish() -> [H264AccessUnit] {
        var result = takeCurrent()
        if !pending.isEmpty {
            var trailing = H264AccessUnit()
            trailing.units = pending
            trailing.damagedUnits = pendingDamaged
            result.append(trailing)
            pending = []
            pendingDamaged = 0
        }
        return result
    }

    /// Splits a whole stream's units into access units.
    public static func split(_ units: [H264NALUnit]) -> [H264AccessUnit] {
        var splitter = H264AccessUnitSplitter()
        var result: [H264AccessUnit] = []
        for unit in units {
            result += splitter.push(unit)
        }
        return result + splitter.finish()
    }

    /// Handles a VCL unit: decides whether it opens a new picture and files it.
    private mutating func pushVCL(_ unit: H264NALUnit) -> [H264AccessUnit] {
        var header: H264SliceHeader?
        var damaged = false
        if unit.type == .slice || unit.type == .idr || unit.type == .sliceDataA {
            do {
                header = try H264SliceHeader(unit, parameterSets: parameterSets)
            } catch {
                damaged = true
                damagedUnits += 1
            }
        }
        let isPrimary = (header?.redundantPicCnt ?? 0) == 0 && unit.type != .sliceDataB && unit.type != .sliceDataC
        // Redundant slices and partitions B and C always belong to the picture before them; a slice
        // whose header could not be read opens a new access unit only if units before it say so.
        var startsNew = false
        if current.hasVCL {
            if let header, isPrimary, let last = lastPrimarySlice {
                startsNew = Self.isFirstSliceOfNewPicture(header, after: last)
            } else if header == nil && (unit.type == .slice || unit.type == .idr || unit.type == .sliceDataA) {
                startsNew = !pending.isEmpty
            } else if header != nil && isPrimary {
                startsNew = !pending.isEmpty
            }
        }
        var completed: [H264AccessUnit] = []
        if startsNew {
            completed = takeCurrent()
        }
        current.units += pending
        current.damagedUnits += pendingDamaged
        pending = []
        pendingDamaged = 0
        current.units.append(unit)
        if damaged { current.damagedUnits += 1 }
        if unit.type == .idr { current.isIDR = true }
        if isPrimary && (header != nil || damaged || unit.type == .sliceDataA) {
            current.sliceCount += 1
        }
        if let header, isPrimary {
            if current.firstSlice == nil {
                current.isSecondField = isSecondField(header)
            }
            current.addPrimarySlice(header)
            lastPrimarySlice = header
        }
        return completed
    }

    /// Hands out `current` (if it has any units) and starts an empty one.
    private mutating func takeCurrent() -> [H264AccessUnit] {
        defer {
            current = H264AccessUnit()
            lastPrimarySlice = nil
        }
        guard !current.units.isEmpty else { return [] }
        if let first = current.firstSlice {
            previousPicture = (first, current.isSecondField)
        } else if current.hasVCL {
            previousPicture = nil
        }
        return [current]
    }

    /// Whether a picture starting with `header` completes a field pair with the previous picture.
    private func isSecondField(_ header: H264SliceHeader) -> Bool {
        guard header.fieldPic, let (previous, previousWasSecond) = previousPicture else { return false }
        return previous.fieldPic && !previousWasSecond
            && previous.bottomField != header.bottomField
            && previous.frameNum == header.frameNum
            && !(header.isIDR && !previous.isIDR)
            && !previous.hasMMCO5
    }

    /// ITU-T H.264 7.4.1.2.4: whether `header` starts a new primary coded picture after `last`.
    static func isFirstSliceOfNewPicture(_ header: H264SliceHeader, after last: H264SliceHeader) -> Bool {
        if header.frameNum != last.frameNum { return true }
        if header.ppsId != last.ppsId { return true }
        if header.fieldPic != last.fieldPic { return true }
        if header.bottomField != last.bottomField { return true }
        if header.nalRefIdc != last.nalRefIdc && (header.nalRefIdc == 0 || last.nalRefIdc == 0) { return true }
        if header.picOrderCntLsb != last.picOrderCntLsb { return true }
        if header.deltaPicOrderCntBottom != last.deltaPicOrderCntBottom { return true }
        if header.deltaPicOrderCnt0 != last.deltaPicOrderCnt0 { return true }
        if header.deltaPicOrderCnt1 != last.deltaPicOrderCnt1 { return true }
        if header.isIDR != last.isIDR { return true }
        if header.isIDR && last.isIDR && header.idrPicId != last.idrPicId { return true }
        return false
    }
}
