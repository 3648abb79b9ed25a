/// Small integer helpers for the H.264 parsers.
enum H264Math {
    /// `Ceil(Log2(value))` for `value >= 1` (0 for 1, 1 for 2, 2 for 3 and 4, …).
    static func ceilLog2(_ value: Int) -> Int {
        var bits = 0
        while bits < 62 && (1 << bits) < value { bits += 1 }
        return bits
    }
}
