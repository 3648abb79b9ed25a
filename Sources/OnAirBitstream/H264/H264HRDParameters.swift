/// Hypothetical reference decoder parameters from a VUI (ITU-T H.264 E.1.2, `hrd_parameters()`).
package struct H264HRDParameters: Sendable, Equatable {
    /// One coded picture buffer specification.
    public struct CPB: Sendable, Equatable {
        /// `bit_rate_value_minus1`.
        public var bitRateValueMinus1: Int
        /// `cpb_size_value_minus1`.
        public var cpbSizeValueMinus1: Int
        /// `cbr_flag`: constant bit rate.
        public var cbr: Bool
    }

    /// `bit_rate_scale`.
    public var bitRateScale: Int = 0
    /// `cpb_size_scale`.
    public var cpbSizeScale: Int = 0
    /// The CPB specifications (`cpb_cnt_minus1 + 1` of them, at most 32).
    public var cpbs: [CPB] = []
    /// `initial_cpb_removal_delay_length_minus1 + 1`, in bits.
    public var initialCPBRemovalDelayLength: Int = 24
    /// `cpb_removal_delay_length_minus1 + 1`, in bits.
    public var cpbRemovalDelayLength: Int = 24
    /// `dpb_output_delay_length_minus1 + 1`, in bits.
    public var dpbOutputDelayLength: Int = 24
    /// `time_offset_length`, in bits.
    public var timeOffsetLength: Int = 24

    /// The bit rate of CPB `index` in bits per second.
    public func bitRate(cpb index: Int) -> Int? {
        guard cpbs.indices.contains(index) else { return nil }
        return (cpbs[index].bitRateValueMinus1 + 1) << (6 + bitRateScale)
    }

    /// Reads `hrd_parameters()`.
    init(_ reader: inout H264BitReader) throws(BitstreamError) {
        let count = try reader.ue("cpb_cnt_minus1", in: 0...31) + 1
        bitRateScale = try reader.bits(4, "bit_rate_scale")
        cpbSizeScale = try reader.bits(4, "cpb_size_scale")
        for _ in 0..<count {
            let bitRate = try reader.ue("bit_rate_value_minus1")
            let size = try reader.ue("cpb_size_value_minus1")
            let cbr = try reader.flag("cbr_flag")
            cpbs.append(CPB(bitRateValueMinus1: bitRate, cpbSizeValueMinus1: size, cbr: cbr))
        }
        initialCPBRemovalDelayLength = try reader.bits(5, "initial_cpb_removal_delay_length_minus1") + 1
        cpbRemovalDelayLength = try reader.bits(5, "cpb_removal_delay_length_minus1") + 1
        dpbOutputDelayLength = try reader.bits(5, "dpb_output_delay_length_minus1") + 1
        timeOffsetLength = try reader.bits(5, "time_offset_length")
    }
}
