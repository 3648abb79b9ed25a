/// Options that change how file outputs are written (MP4 layout, HLS segmenting).
public struct OutputOptions: Sendable, Equatable {
    /// Write MP4 as fragments so a killed process leaves a playable file (default true).
    public var fragmentedMP4 = true
    /// Write a classic MP4 with the index at the front instead (needs a clean finish).
    public var faststart = false
    /// HLS outputs: the target segment duration (segments start on keyframes).
    public var hlsSegmentDuration: Duration = .seconds(2)
    /// HLS outputs: how many segments the playlist lists (0 keeps them all, a VOD-style playlist).
    public var hlsListSize = 6
    /// HLS outputs: fragmented-MP4 (CMAF) segments instead of MPEG-TS.
    public var hlsFragmentedMP4 = false
    /// Creates the default options.
    public init() {}
}
