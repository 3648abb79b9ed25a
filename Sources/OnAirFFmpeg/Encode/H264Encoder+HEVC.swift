#if os(Linux)
import CFFmpeg
import OnAirBitstream
import OnAirCore

/// H.265: the options each HEVC encoder family takes, and the parameter sets read from its packets.
extension H264Encoder {
    /// Profile and options of an HEVC encoder: Main, IDR keyframes with the parameter sets in
    /// band and a closed GOP, so every keyframe (the interval's and the forced ones) starts a
    /// segment, a join or a snapshot clean. libavcodec's libx265 wrapper makes a forced frame a
    /// plain I-frame (a CRA in an open GOP) unless `forced-idr` is set, and writes VPS/SPS/PPS
    /// only once, in extradata, unless `repeat-headers` is.
    static func applyHEVCOptions(_ settings: VideoEncoderSettings, name: String, reorder: Bool, to context: CodecContext)
        throws(EncoderError)
    {
        context.pointer.pointee.profile = FF_PROFILE_HEVC_MAIN
        try context.setPrivateOption("profile", settings.hevcProfileLevel.profileName)
        try context.setPrivateOption("forced_idr", "1")
        try context.setPrivateOption("forced-idr", "1")
        guard name == "libx265" else {
            if settings.realTime {
                try context.setPrivateOption("zerolatency", "1")
                try context.setPrivateOption("delay", "0")
                try context.setPrivateOption("async_depth", "1")
                try context.setPrivateOption("look_ahead", "0")
            }
            return
        }
        var params = [
            "keyint=\(settings.effectiveKeyFrameInterval)", "min-keyint=1", "bframes=\(reorder ? 3 : 0)",
            "forced-idr=1", "repeat-headers=1", "open-gop=0", "annexb=1", "log-level=error",
        ]
        if settings.realTime {
            try context.setPrivateOption("tune", "zerolatency")
            params += ["rc-lookahead=0", "frame-threads=1"]
        }
        try context.setPrivateOption("x265-params", params.joined(separator: ":"))
    }

    /// The VPS, SPS and PPS in an Annex-B H.265 payload (each without start code) and whether it
    /// holds an IRAP picture, read in place.
    static func hevcUnits(in bytes: UnsafeRawBufferPointer) -> (parameterSets: [[UInt8]], isKeyframe: Bool) {
        var sets: [[UInt8]] = [], keyframe = false
        for range in AnnexB.nalUnitRanges(in: bytes) {
            let type = HEVCNALUnitType(rawValue: bytes[range.lowerBound] >> 1)
            if type.isParameterSet { sets.append(Array(bytes[range])) }
            if type.isIRAP { keyframe = true }
        }
        return (sets, keyframe)
    }

    /// A format description from H.265 parameter sets, nil unless it has a VPS, an SPS and a PPS.
    static func hevcDescription(_ parameterSets: [[UInt8]]) -> FormatDescription? {
        func of(_ type: HEVCNALUnitType) -> [[UInt8]] { parameterSets.filter { HEVCNALUnitType(rawValue: $0[0] >> 1) == type } }
        let vps = of(.vps), sps = of(.sps), pps = of(.pps)
        return vps.isEmpty || sps.isEmpty || pps.isEmpty ? nil : .h265(vps: vps, sps: sps, pps: pps)
    }
}
#endif
