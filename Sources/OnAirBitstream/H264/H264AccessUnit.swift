/// The NAL units of one H.264 access unit: one primary coded picture (a frame or a single field)
/// with its parameter sets, SEI and any redundant or auxiliary slices.
package struct H264AccessUnit: Sendable, Equatable {
    /// The units in stream order.
    public var units: [H264NALUnit] = []
    /// Whether the picture is an IDR picture (it has an IDR slice).
    public var isIDR: Bool = false
    /// The header of the first primary slice whose header could be parsed.
    public var firstSlice: H264SliceHeader?
    /// The picture's type from its primary slices: B if any slice is B, else P, else SP, else I,
    /// else SI; `nil` when no slice header could be parsed.
    public var primarySliceType: H264SliceType?
    /// The number of primary slices (VCL units of types 1…5 that are not redundant).
    public var sliceCount: Int = 0
    /// The number of units in this access unit that failed to parse (they are kept in `units`).
    public var damagedUnits: Int = 0
    /// Whether this picture is the second field of a field pair whose first field was the previous
    /// access unit (opposite parity, same `frame_num`). FFmpeg counts such a pair as one frame.
    public var isSecondField: Bool = false

    /// Creates an empty access unit.
    public init() {}

    /// Whether the picture is a single field rather than a frame.
    public var isField: Bool { firstSlice?.fieldPic ?? false }

    /// Whether the access unit holds any VCL unit.
    public var hasVCL: Bool { units.contains { $0.type.isVCL } }

    /// `recovery_frame_cnt` from a recovery point SEI in this access unit, if there is one that parses.
    /// An I picture with a count of 0 is a random access point even when it is not IDR (open GOP).
    public var recoveryFrameCount: Int? {
        for unit in units where unit.type == .sei {
            guard let messages = try? H264SEIMessage.messages(in: unit) else { continue }
            if let count = messages.lazy.compactMap(\.recoveryFrameCount).first { return count }
        }
        return nil
    }

    /// Whether decoding can start here: an IDR picture, or an I picture with a recovery point SEI
    /// whose `recovery_frame_cnt` is 0 (FFmpeg marks both as key frames).
    public var isRandomAccessPoint: Bool {
        isIDR || (primarySliceType?.isIntra == true && recoveryFrameCount == 0)
    }

    /// Records one primary slice's header.
    mutating func addPrimarySlice(_ header: H264SliceHeader) {
        if firstSlice == nil { firstSlice = header }
        primarySliceType = Self.merge(primarySliceType, header.sliceType)
    }

    /// Combines slice types with B > P > SP > I > SI.
    static func merge(_ current: H264SliceType?, _ next: H264SliceType) -> H264SliceType {
        guard let current else { return next }
        return rank(next) > rank(current) ? next : current
    }

    /// The order used by `merge`.
    private static func rank(_ type: H264SliceType) -> Int {
        switch type {
        case .si: return 0
        case .i: return 1
        case .sp: return 2
        case .p: return 3
        case .b: return 4
        }
    }
}
