/// The MPEG-4 audio sampling-frequency index table (ISO/IEC 14496-3 Table 1.18), shared by
/// ADTS headers and AudioSpecificConfig.
public enum AACSamplingFrequency {
    /// The 13 sampling rates in Hz, by index 0…12; 13 and 14 are reserved, 15 means "explicit".
    public static let table: [Int] = [
        96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350,
    ]

    /// The index that stands for a sampling rate in Hz exactly, or `nil` when the rate has none.
    public static func index(for rate: Int) -> Int? {
        table.firstIndex(of: rate)
    }

    /// The sampling rate in Hz for an index, or `nil` for reserved, explicit or out-of-range indexes.
    public static func rate(forIndex index: Int) -> Int? {
        table.indices.contains(index) ? table[index] : nil
    }

    /// The escape index meaning the rate follows as an explicit 24-bit value.
    public static let explicitIndex = 15
}
