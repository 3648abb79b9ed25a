extension MediaTime {
    /// The time in nanoseconds (GStreamer's unit).
    package var nanoseconds: Int64 { converted(to: 1_000_000_000).value }
}
