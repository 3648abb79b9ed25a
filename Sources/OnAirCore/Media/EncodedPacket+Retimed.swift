extension EncodedPacket {
    /// The packet with its times in `scale` ticks counted from `origin` seconds (rounded to the
    /// nearest tick, dts never negative, pts never before dts, duration at least one tick), so a
    /// muxer whose time base is `scale` rescales nothing. Used by the serve muxers and the
    /// segmented recorder.
    package func retimed(scale: Int32, origin: Double) -> EncodedPacket {
        func ticks(_ time: MediaTime) -> Int64 {
            let timescale = Int64(max(1, time.timescale))
            let product = time.value * Int64(scale)
            return (product >= 0 ? product + timescale / 2 : product - timescale / 2) / timescale
        }
        let base = Int64((origin * Double(scale)).rounded())
        var retimed = self
        retimed.dts = MediaTime(value: max(0, ticks(dts) - base), timescale: scale)
        retimed.pts = MediaTime(value: max(ticks(pts) - base, retimed.dts.value), timescale: scale)
        retimed.duration = MediaTime(value: max(1, ticks(duration)), timescale: scale)
        return retimed
    }
}
