extension VideoEncoderSettings {
    /// A hard cap on output: at most `bytes` in any window of `seconds` (VideoToolbox's DataRateLimits).
    public struct DataRateLimit: Sendable, Hashable, Codable {
        /// The most bytes allowed within the window.
        public var bytes: Int
        /// The window length in seconds.
        public var seconds: Double

        /// Creates a limit of `bytes` per `seconds`.
        public init(bytes: Int, seconds: Double) {
            self.bytes = bytes
            self.seconds = seconds
        }

        /// The limit as a bit rate (bits per second).
        public var bitsPerSecond: Double { seconds > 0 ? Double(bytes) * 8 / seconds : 0 }

        /// A limit of `factor` × `averageBitRate` over a window of `seconds` (1.5 × over 1 s by default).
        public static func relative(to averageBitRate: Int, factor: Double = 1.5, seconds: Double = 1) -> VideoEncoderSettings.DataRateLimit
        {
            DataRateLimit(bytes: Int(Double(averageBitRate) * factor * seconds / 8), seconds: seconds)
        }
    }
}

/// `VideoEncoderSettings.DataRateLimit` by its short name, inside the package.
package typealias DataRateLimit = VideoEncoderSettings.DataRateLimit
