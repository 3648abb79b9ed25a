extension VideoEncoderSettings {
    /// The data-rate limits scaled to `bitRate`: each cap keeps its ratio to the average bitrate
    /// (1.5 × by default) and stays at least one byte. The one place a bitrate change moves the caps,
    /// whether the encoder opens at a higher rate or adaptive bitrate lowers it.
    public func dataRateLimits(scaledTo bitRate: Int) -> [VideoEncoderSettings.DataRateLimit] {
        let scale = Double(bitRate) / Double(max(averageBitRate, 1))
        return dataRateLimits.map { DataRateLimit(bytes: max(1, Int(Double($0.bytes) * scale)), seconds: $0.seconds) }
    }

    /// These settings at average bitrate `bitRate`, the data-rate limits scaled with it.
    public func withAverageBitRate(_ bitRate: Int) -> VideoEncoderSettings {
        var changed = self
        changed.dataRateLimits = dataRateLimits(scaledTo: bitRate)
        changed.averageBitRate = bitRate
        return changed
    }
}
