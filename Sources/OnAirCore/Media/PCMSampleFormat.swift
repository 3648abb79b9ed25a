extension PCMBuffer {
    /// The numeric type of one PCM sample.
    public enum SampleFormat: String, Sendable, Codable, Hashable, CaseIterable {
        /// Signed 16-bit integer.
        case s16
        /// Signed 32-bit integer.
        case s32
        /// 32-bit float, nominally −1…1.
        case f32

        /// The size of one sample in bytes.
        public var bytesPerSample: Int {
            switch self {
            case .s16: return 2
            case .s32, .f32: return 4
            }
        }
    }
}

/// `PCMBuffer.SampleFormat` by its short name, inside the package.
package typealias PCMSampleFormat = PCMBuffer.SampleFormat
