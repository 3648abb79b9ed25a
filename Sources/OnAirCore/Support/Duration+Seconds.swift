extension Duration {
    /// The duration in seconds, as the engine's timing (media time, deadlines) counts it.
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
