/// One scaling list as coded in an SPS or PPS (ITU-T H.264 7.3.2.1.1.1).
package enum H264ScalingList: Sendable, Equatable {
    /// The list's present flag was zero: fall-back rule A or B applies.
    case notPresent
    /// The list was coded but selects the default matrix (`useDefaultScalingMatrixFlag`).
    case useDefault
    /// Explicit weights (16 or 64), in the coded zig-zag order.
    case explicit([UInt8])

    /// Reads the `*_scaling_list_present_flag` and, when set, the `scaling_list()` of `size` entries.
    static func parse(_ reader: inout H264BitReader, size: Int, field: String) throws(BitstreamError) -> H264ScalingList {
        guard try reader.flag("\(field) present flag") else { return .notPresent }
        var weights: [UInt8] = []
        weights.reserveCapacity(size)
        var lastScale = 8
        var nextScale = 8
        for index in 0..<size {
            if nextScale != 0 {
                let delta = try reader.se("\(field) delta_scale", in: -128...127)
                nextScale = (lastScale + delta + 256) % 256
                if index == 0 && nextScale == 0 { return .useDefault }
            }
            let value = nextScale == 0 ? lastScale : nextScale
            weights.append(UInt8(value))
            lastScale = value
        }
        return .explicit(weights)
    }

    /// Reads `count` lists: the first six 4x4 (16 entries), the rest 8x8 (64 entries).
    static func parseLists(_ reader: inout H264BitReader, count: Int, field: String) throws(BitstreamError) -> [H264ScalingList] {
        var lists: [H264ScalingList] = []
        for index in 0..<count {
            lists.append(try parse(&reader, size: index < 6 ? 16 : 64, field: "\(field)[\(index)]"))
        }
        return lists
    }
}
