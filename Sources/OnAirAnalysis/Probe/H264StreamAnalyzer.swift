#if os(Linux)
import OnAirBitstream

/// Summarises an H.264 stream from its NAL units: profile, size, picture and IDR counts, GOPs.
///
/// Feed NAL units in decoding order (from an Annex-B file or converted from AVCC samples);
/// access units are found with `H264AccessUnitSplitter`, and a second field of a field pair
/// is counted with its first, as ffprobe counts frames.
struct H264StreamAnalyzer {
    private var splitter = H264AccessUnitSplitter()
    private var pictures = 0
    private var idrPictures = 0
    private var picturesSinceIDR = 0
    private var sawIDR = false
    private var longestGOP = 0
    private var hasBFrames = false
    private var interlaced = false
    private var lastField: (frameNum: Int, bottom: Bool)?
    private(set) var byteCount = 0
    private(set) var unitCount = 0
    private var firstSPS: H264SPS?
    private var firstPPS: H264PPS?

    private var damagedOutsideSplitter = 0

    /// Adds one NAL unit; `countBytes` is false for parameter sets taken from out-of-band configuration.
    mutating func add(_ unit: H264NALUnit, countBytes: Bool = true) {
        if countBytes {
            byteCount += unit.bytes.count
            unitCount += 1
        }
        if firstSPS == nil, unit.type == .sps { firstSPS = try? H264SPS(unit) }
        for accessUnit in splitter.push(unit) { count(accessUnit) }
    }

    /// Counts a unit or sample that could not even be split into NAL units.
    mutating func noteDamaged() {
        damagedOutsideSplitter += 1
    }

    /// Ends the stream: the last access unit is counted.
    mutating func finish() {
        for accessUnit in splitter.finish() { count(accessUnit) }
        longestGOP = max(longestGOP, picturesSinceIDR)
    }

    private mutating func count(_ accessUnit: H264AccessUnit) {
        guard let slice = accessUnit.firstSlice else { return }
        if firstPPS == nil { firstPPS = splitter.parameterSets.pps[slice.ppsId] }
        if accessUnit.units.contains(where: { unit in
            unit.type.isVCL && (try? H264SliceHeader(unit, parameterSets: splitter.parameterSets))?.sliceType == .b
        }) {
            hasBFrames = true
        }
        if slice.fieldPic {
            interlaced = true
            // The second field of a pair has the same frame_num and the other parity.
            if let last = lastField, last.frameNum == slice.frameNum, last.bottom != slice.bottomField {
                lastField = nil
                return
            }
            lastField = (slice.frameNum, slice.bottomField)
        } else {
            lastField = nil
        }
        pictures += 1
        if accessUnit.isIDR {
            idrPictures += 1
            if sawIDR { longestGOP = max(longestGOP, picturesSinceIDR) }
            sawIDR = true
            picturesSinceIDR = 0
        }
        picturesSinceIDR += 1
    }

    /// The stream's summary. `duration`, `frameRate` and `byteCount` come from a container when
    /// there is one; otherwise they are derived from the SPS timing and the NAL units' sizes.
    func report(
        duration containerDuration: Double?, frameRate containerFrameRate: Double?,
        byteCount containerBytes: Int?
    ) -> ProbedStream? {
        guard let sps = firstSPS ?? splitter.parameterSets.sps.values.first else { return nil }
        let frameRate = sps.frameRate ?? containerFrameRate
        let duration = containerDuration ?? frameRate.map { Double(pictures) / $0 } ?? 0
        return ProbedStream(
            type: "video", codec: "h264", profile: sps.profileName, level: sps.level,
            width: sps.width, height: sps.height,
            codedWidth: sps.codedWidth, codedHeight: sps.codedHeight,
            chromaFormat: Int(sps.chromaFormatIdc), bitDepth: Int(sps.bitDepthLuma),
            entropyCoding: firstPPS.map { $0.entropyCodingModeFlag ? "CABAC" : "CAVLC" },
            interlaced: interlaced || !sps.frameMbsOnly,
            frameRate: frameRate, frames: pictures, keyframes: idrPictures,
            maxGop: longestGOP, bFrames: hasBFrames,
            sampleRate: nil, channels: nil,
            duration: duration,
            bitRate: duration > 0 ? Int((Double((containerBytes ?? byteCount) * 8) / duration).rounded()) : 0,
            damaged: splitter.damagedUnits + damagedOutsideSplitter
        )
    }
}
#endif
