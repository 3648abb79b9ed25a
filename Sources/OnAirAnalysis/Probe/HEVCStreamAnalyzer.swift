#if os(Linux)
import OnAirBitstream

/// Summarises an H.265/HEVC stream from its NAL units: profile, tier, level, size, picture and
/// IRAP counts, GOPs.
///
/// Feed NAL units in decoding order (from an Annex-B file or from length-prefixed samples). A
/// picture starts at a slice whose `first_slice_segment_in_pic_flag` is set; IRAP pictures (IDR,
/// CRA, BLA) are the keyframes. A GOP is counted in presentation order, as ffprobe counts it: the
/// leading pictures that follow a CRA in decoding order (RASL, RADL) are shown before it, so they
/// count to the GOP before. Whether pictures are reordered is read from the SPS
/// (`sps_max_num_reorder_pics`), not from slice types.
struct HEVCStreamAnalyzer {
    private var pictures = 0
    private var irapPictures = 0
    private var picturesSinceIRAP = 0
    /// The pictures of the GOP before the current one (its leading pictures still come).
    private var previousGOP = 0
    private var sawIRAP = false
    private var longestGOP = 0
    private var firstSPS: HEVCSPS?
    private(set) var byteCount = 0
    private var damagedUnits = 0

    /// Adds one NAL unit; `countBytes` is false for parameter sets taken from out-of-band configuration.
    mutating func add(_ unit: HEVCNALUnit, countBytes: Bool = true) {
        if countBytes { byteCount += unit.bytes.count }
        let type = unit.type
        if type == .sps, firstSPS == nil {
            do {
                firstSPS = try HEVCSPS(unit)
            } catch {
                damagedUnits += 1
            }
        }
        // The first slice segment of a picture: the flag is the first bit after the two-byte header.
        guard type.isVCL, unit.bytes.count > 2, unit.bytes[2] & 0x80 != 0 else { return }
        pictures += 1
        if type.isIRAP {
            irapPictures += 1
            if sawIRAP { longestGOP = max(longestGOP, picturesSinceIRAP) }
            previousGOP = sawIRAP ? picturesSinceIRAP : 0
            sawIRAP = true
            picturesSinceIRAP = 0
        }
        if (6...9).contains(type.rawValue) {  // RADL_N, RADL_R, RASL_N, RASL_R: shown before the IRAP
            previousGOP += 1
            longestGOP = max(longestGOP, previousGOP)
            return
        }
        picturesSinceIRAP += 1
    }

    /// A unit as `onair probe --units` lists it (no slice type: H.265 slice headers are not read).
    static func listed(_ unit: HEVCNALUnit, stream: Int, offset: Int?, pts: Double?) -> ProbedUnit {
        ProbedUnit(stream: stream, type: unit.type.description, size: unit.bytes.count, sliceType: nil, offset: offset, pts: pts)
    }

    /// Counts a unit or sample that could not be split into NAL units.
    mutating func noteDamaged() {
        damagedUnits += 1
    }

    /// Ends the stream: the last GOP is measured.
    mutating func finish() {
        longestGOP = max(longestGOP, picturesSinceIRAP)
    }

    /// The stream's summary (see `H264StreamAnalyzer.report` for where each figure comes from);
    /// nil without an SPS.
    func report(duration containerDuration: Double?, frameRate containerFrameRate: Double?, byteCount containerBytes: Int?)
        -> ProbedStream?
    {
        guard let sps = firstSPS else { return nil }
        let frameRate = sps.vui?.frameRate ?? containerFrameRate
        let duration = containerDuration ?? frameRate.map { Double(pictures) / $0 } ?? 0
        var stream = ProbedStream(
            type: "video", codec: "hevc", profile: sps.profileTierLevel.profileName,
            level: Double(sps.profileTierLevel.levelIdc) / 30,
            width: sps.width, height: sps.height, codedWidth: sps.codedWidth, codedHeight: sps.codedHeight,
            chromaFormat: sps.chromaFormatIdc, bitDepth: sps.bitDepthLuma, entropyCoding: nil, interlaced: false,
            frameRate: frameRate, frames: pictures, keyframes: irapPictures, maxGop: longestGOP,
            bFrames: sps.maxNumReorderPictures > 0, sampleRate: nil, channels: nil, duration: duration,
            bitRate: duration > 0 ? Int((Double((containerBytes ?? byteCount) * 8) / duration).rounded()) : 0,
            damaged: damagedUnits)
        stream.tier = sps.profileTierLevel.tierName
        return stream
    }
}
#endif
