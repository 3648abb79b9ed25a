#if os(Linux)
/// How far ahead of the master clock the window picks its frame: the time an upload and present
/// take (a 720p picture through a software renderer takes tens of milliseconds), smoothed, so a
/// frame reaches the screen when its sound is heard rather than that much after.
package enum DisplayLead {
    /// The largest lead (seconds): a present slower than this is a stall, not a cost to plan for.
    public static let maximum = 0.04
    /// The weight of a new sample in the running average.
    public static let weight = 0.1

    /// The lead after one frame took `sample` seconds from being chosen to being presented.
    public static func update(_ lead: Double, sample: Double) -> Double {
        let clamped = min(max(sample, 0), maximum)
        return lead + (clamped - lead) * weight
    }
}
#endif
