import OnAirBitstream
import Testing

extension H264StreamCase {
    /// The configurations the conformance test runs: profiles, bit depths, chroma formats, levels,
    /// odd sizes, slices, AUD, SEI, B-frames, interlacing, lossless, intra, VUI and GOP variants.
    static let all: [H264StreamCase] = profiles + geometry + structure + vuiAndGOP

    static let profiles: [H264StreamCase] = [
        H264StreamCase(
            name: "baseline", arguments: ["-profile:v", "baseline"], profile: "Constrained Baseline",
            checkMP4: true
        ) { sps, pps, units in
            #expect(!pps.entropyCodingModeFlag)
            #expect(sps.picOrderCntType == 2)
            #expect(!units.contains { $0.primarySliceType == .b })
        },
        H264StreamCase(
            name: "main with B-frames", arguments: ["-profile:v", "main", "-bf", "3"], profile: "Main",
            checkMP4: true
        ) { sps, pps, units in
            #expect(pps.entropyCodingModeFlag)
            #expect(sps.picOrderCntType == 0)
            #expect(units.contains { $0.primarySliceType == .b })
        },
        H264StreamCase(
            name: "high 1080p level 4.0", size: "1920x1080", frames: 12,
            arguments: ["-profile:v", "high", "-level", "4.0"], profile: "High", checkMP4: true
        ) { sps, pps, _ in
            #expect(sps.levelIdc == 40 && sps.levelName == "4")
            #expect((sps.codedWidth, sps.codedHeight) == (1920, 1088))
            #expect(sps.frameCropBottom == 4)
            #expect(pps.transform8x8Mode)
        },
        H264StreamCase(name: "high 10", arguments: ["-pix_fmt", "yuv420p10le"], profile: "High 10", checkMP4: true) { sps, _, _ in
            #expect(sps.bitDepthLuma == 10 && sps.bitDepthChroma == 10)
        },
        H264StreamCase(
            name: "high 10 intra", arguments: ["-pix_fmt", "yuv420p10le", "-x264-params", "keyint=1"],
            profile: "High 10 Intra"
        ) { sps, _, units in
            #expect(sps.isIntraProfile && sps.vui?.bitstreamRestriction == false)
            #expect(units.allSatisfy { $0.isIDR })
        },
        H264StreamCase(name: "high 4:2:2", arguments: ["-pix_fmt", "yuv422p"], profile: "High 4:2:2", checkMP4: true) { sps, _, _ in
            #expect(sps.chromaFormatIdc == 2 && (sps.subWidthC, sps.subHeightC) == (2, 1))
        },
        H264StreamCase(
            name: "high 4:2:2 intra", arguments: ["-pix_fmt", "yuv422p", "-x264-params", "keyint=1"],
            profile: "High 4:2:2 Intra"),
        H264StreamCase(
            name: "high 4:4:4", arguments: ["-pix_fmt", "yuv444p", "-profile:v", "high444"],
            profile: "High 4:4:4 Predictive", checkMP4: true
        ) { sps, _, _ in
            #expect(sps.chromaFormatIdc == 3 && !sps.separateColourPlane && sps.cropUnitX == 1)
        },
        H264StreamCase(
            name: "high 4:4:4 intra", arguments: ["-pix_fmt", "yuv444p", "-x264-params", "keyint=1"],
            profile: "High 4:4:4 Intra"),
        H264StreamCase(name: "high 4:4:4 10-bit", arguments: ["-pix_fmt", "yuv444p10le"], profile: "High 4:4:4 Predictive"),
        H264StreamCase(
            name: "lossless 4:4:4", arguments: ["-pix_fmt", "yuv444p", "-qp", "0"],
            profile: "High 4:4:4 Predictive"
        ) { sps, _, _ in
            #expect(sps.qpprimeYZeroTransformBypass)
        },
        H264StreamCase(name: "lossless 4:2:0", arguments: ["-qp", "0"], profile: "High 4:4:4 Predictive") { sps, _, _ in
            #expect(sps.qpprimeYZeroTransformBypass && sps.chromaFormatIdc == 1)
        },
        H264StreamCase(
            name: "monochrome", arguments: ["-pix_fmt", "gray"], profile: "High",
            comparePixelFormat: false, checkMP4: true
        ) { sps, _, _ in
            #expect(sps.chromaFormatIdc == 0 && sps.chromaArrayType == 0 && sps.cropUnitX == 1)
        },
        H264StreamCase(name: "high CAVLC", arguments: ["-coder", "0"], profile: "High") { _, pps, _ in
            #expect(!pps.entropyCodingModeFlag)
        },
        H264StreamCase(
            name: "level 1b baseline", size: "128x96", rate: "15",
            arguments: ["-profile:v", "baseline", "-level", "1b"], profile: "Constrained Baseline"
        ) { sps, _, _ in
            #expect(sps.isLevel1b && sps.levelName == "1b" && sps.level == 1.1)
        },
        H264StreamCase(
            name: "level 1b high", size: "128x96", rate: "15",
            arguments: ["-profile:v", "high", "-level", "1b"], profile: "High"
        ) { sps, _, _ in
            #expect(sps.isLevel1b && sps.levelIdc == 9)
        },
        H264StreamCase(name: "level 3.1 main", arguments: ["-profile:v", "main", "-level", "3.1"], profile: "Main") { sps, _, _ in
            #expect(sps.levelIdc == 31 && sps.levelName == "3.1" && !sps.isLevel1b)
        },
    ]

    static let geometry: [H264StreamCase] = [
        H264StreamCase(name: "642x362 cropped", size: "642x362", arguments: [], profile: "High") { sps, _, _ in
            #expect((sps.codedWidth, sps.codedHeight) == (656, 368))
            #expect((sps.frameCropRight, sps.frameCropBottom) == (7, 3))
        },
        H264StreamCase(
            name: "321x241 4:4:4", filter: "scale=321:241", arguments: ["-pix_fmt", "yuv444p"],
            profile: "High 4:4:4 Predictive"
        ) { sps, _, _ in
            #expect((sps.frameCropRight, sps.frameCropBottom) == (15, 15))
        },
        H264StreamCase(name: "interlaced ildct+ilme", arguments: ["-flags", "+ildct+ilme"], profile: "High") { sps, _, _ in
            #expect(!sps.frameMbsOnly && sps.mbAdaptiveFrameField && sps.cropUnitY == 4)
        },
        H264StreamCase(
            name: "interlaced bff 29.97", rate: "30000/1001", arguments: ["-x264-params", "interlaced=1:bff=1", "-bf", "3"],
            profile: "High"
        ) { sps, _, units in
            #expect(!sps.frameMbsOnly)
            #expect(!units.contains { $0.isField })
        },
        H264StreamCase(
            name: "interlaced 642x364", size: "642x364", arguments: ["-x264-params", "interlaced=1"],
            profile: "High"
        ) { sps, _, _ in
            #expect(sps.codedHeight == 384 && sps.height == 364 && sps.frameCropBottom == 5)
        },
    ]

    static let structure: [H264StreamCase] = [
        H264StreamCase(name: "4 slices", arguments: ["-x264-params", "slices=4"], profile: "High") { _, _, units in
            #expect(units.allSatisfy { $0.sliceCount == 4 })
        },
        H264StreamCase(name: "AUD", arguments: ["-x264-params", "aud=1", "-bf", "3"], profile: "High") { _, _, units in
            #expect(units.allSatisfy { $0.units.first?.type == .accessUnitDelimiter })
        },
        H264StreamCase(name: "AUD with slices", arguments: ["-x264-params", "aud=1:slices=3"], profile: "High"),
        H264StreamCase(
            name: "B-pyramid, 4 refs", frames: 20, arguments: ["-bf", "3", "-refs", "4", "-x264-params", "b-pyramid=strict"],
            profile: "High"),
        H264StreamCase(name: "all IDR", arguments: ["-x264-params", "keyint=1"], profile: "High") { _, _, units in
            #expect(units.allSatisfy { $0.isIDR })
            #expect(Set(units.compactMap(\.firstSlice?.idrPicId)).count > 1)
        },
        H264StreamCase(
            name: "short GOP", frames: 20, arguments: ["-x264-params", "keyint=5:min-keyint=5", "-bf", "2"],
            profile: "High"
        ) { _, _, units in
            #expect(units.filter(\.isIDR).count == 4)
        },
        H264StreamCase(
            name: "weighted prediction fade", frames: 20, filter: "fade=in:0:15",
            arguments: ["-x264-params", "weightp=2"], profile: "High"),
        H264StreamCase(
            name: "HRD with SEI", frames: 15,
            arguments: ["-x264-params", "nal-hrd=cbr", "-b:v", "300k", "-maxrate", "300k", "-bufsize", "600k"],
            profile: "High"
        ) { sps, _, units in
            #expect(sps.vui?.nalHRD?.cpbs.first?.cbr == true)
            #expect(units.allSatisfy { $0.units.contains { $0.type == .sei } })
            #expect(units.filter { !$0.isIDR }.allSatisfy { $0.units.first?.type == .sei })
        },
    ]

    static let vuiAndGOP: [H264StreamCase] = [
        H264StreamCase(name: "VUI 29.97", rate: "30000/1001", arguments: [], profile: "High") { sps, _, _ in
            #expect(sps.frameRateFraction.map { $0.numerator == 30000 && $0.denominator == 1001 } == true)
            #expect(abs((sps.frameRate ?? 0) - 29.97) < 0.01)
        },
        // The colour on the frames too (setparams): ffmpeg 7 gives the encoder the frames' own
        // colour, which overrides the output options (the SPS then had no colour description).
        H264StreamCase(
            name: "VUI colour and SAR", filter: "setsar=4/3,setparams=color_primaries=bt709:color_trc=bt709:colorspace=bt709",
            arguments: ["-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709"],
            profile: "High"
        ) { sps, _, _ in
            #expect(sps.vui?.colourPrimaries == 1 && sps.vui?.transferCharacteristics == 1 && sps.vui?.matrixCoefficients == 1)
            #expect(sps.vui?.aspectRatioIdc == 14)
        },
        H264StreamCase(name: "VUI full range", arguments: ["-x264-params", "fullrange=on"], profile: "High") { sps, _, _ in
            #expect(sps.vui?.videoFullRange == true)
        },
        H264StreamCase(
            name: "open GOP", frames: 30, arguments: ["-x264-params", "open-gop=1:keyint=10"],
            profile: "High"
        ) { _, _, units in
            #expect(units.filter(\.isIDR).count == 1)
            #expect(units.filter(\.isRandomAccessPoint).count == 3)
        },
        H264StreamCase(
            name: "intra refresh", frames: 30, arguments: ["-x264-params", "intra-refresh=1:keyint=10"],
            profile: "High"
        ) { _, _, units in
            #expect(units.filter { $0.recoveryFrameCount != nil }.count >= 2)
        },
        H264StreamCase(name: "JVT scaling matrix", arguments: ["-x264-params", "cqm=jvt"], profile: "High") { sps, pps, _ in
            // x264 codes its matrices in the PPS, not the SPS.
            #expect(sps.scalingLists == nil)
            #expect(pps.scalingLists == Array(repeating: .notPresent, count: 8))  // fall-back rule A: defaults
        },
        H264StreamCase(
            name: "custom scaling matrix",
            arguments: [
                "-x264-params",
                "cqm4=" + Array(repeating: "16", count: 15).joined(separator: ",") + ",20"
                    + ":cqm8=" + Array(repeating: "16", count: 63).joined(separator: ",") + ",24",
            ],
            profile: "High"
        ) { _, pps, _ in
            let lists = pps.scalingLists ?? []
            #expect(lists.contains { if case .explicit(let weights) = $0 { weights.count == 64 } else { false } })
        },
    ]
}
