/// Video usability information from an SPS (ITU-T H.264 E.1.1, `vui_parameters()`).
package struct H264VUI: Sendable, Equatable {
    /// `aspect_ratio_idc`, when aspect-ratio information is present.
    public var aspectRatioIdc: UInt8?
    /// The sample aspect ratio's width: from table E-1 or `sar_width`; 0 when unknown.
    public var sarWidth: Int = 0
    /// The sample aspect ratio's height: from table E-1 or `sar_height`; 0 when unknown.
    public var sarHeight: Int = 0
    /// `overscan_appropriate_flag`, when overscan information is present.
    public var overscanAppropriate: Bool?
    /// `video_format` (5, "unspecified", when absent).
    public var videoFormat: Int = 5
    /// `video_full_range_flag` (false when absent).
    public var videoFullRange: Bool = false
    /// `colour_primaries`, when a colour description is present.
    public var colourPrimaries: Int?
    /// `transfer_characteristics`, when a colour description is present.
    public var transferCharacteristics: Int?
    /// `matrix_coefficients`, when a colour description is present.
    public var matrixCoefficients: Int?
    /// `chroma_sample_loc_type_top_field`, when chroma location information is present.
    public var chromaSampleLocTypeTopField: Int?
    /// `chroma_sample_loc_type_bottom_field`, when chroma location information is present.
    public var chromaSampleLocTypeBottomField: Int?
    /// `timing_info_present_flag`.
    public var timingInfoPresent: Bool = false
    /// `num_units_in_tick` (0 when timing is absent).
    public var numUnitsInTick: UInt32 = 0
    /// `time_scale` (0 when timing is absent).
    public var timeScale: UInt32 = 0
    /// `fixed_frame_rate_flag`.
    public var fixedFrameRate: Bool = false
    /// The NAL HRD parameters, when present.
    public var nalHRD: H264HRDParameters?
    /// The VCL HRD parameters, when present.
    public var vclHRD: H264HRDParameters?
    /// `low_delay_hrd_flag` (false when no HRD parameters are present).
    public var lowDelayHRD: Bool = false
    /// `pic_struct_present_flag`: picture timing SEI carries `pic_struct`.
    public var picStructPresent: Bool = false
    /// `bitstream_restriction_flag`.
    public var bitstreamRestriction: Bool = false
    /// `motion_vectors_over_pic_boundaries_flag`, when the bitstream restriction is present.
    public var motionVectorsOverPicBoundaries: Bool?
    /// `max_bytes_per_pic_denom`, when the bitstream restriction is present.
    public var maxBytesPerPicDenom: Int?
    /// `max_bits_per_mb_denom`, when the bitstream restriction is present.
    public var maxBitsPerMbDenom: Int?
    /// `log2_max_mv_length_horizontal`, when the bitstream restriction is present.
    public var log2MaxMvLengthHorizontal: Int?
    /// `log2_max_mv_length_vertical`, when the bitstream restriction is present.
    public var log2MaxMvLengthVertical: Int?
    /// `max_num_reorder_frames`: how many frames may precede another in decoding order and follow
    /// it in output order (the decoder's reorder delay), when the bitstream restriction is present.
    public var maxNumReorderFrames: Int?
    /// `max_dec_frame_buffering`, when the bitstream restriction is present.
    public var maxDecFrameBuffering: Int?

    /// Sample aspect ratios for `aspect_ratio_idc` 1…16 (table E-1).
    static let sampleAspectRatios: [(Int, Int)] = [
        (1, 1), (12, 11), (10, 11), (16, 11), (40, 33), (24, 11), (20, 11), (32, 11),
        (80, 33), (18, 11), (15, 11), (64, 33), (160, 99), (4, 3), (3, 2), (2, 1),
    ]

    /// `aspect_ratio_idc` meaning an explicit `sar_width`/`sar_height` follows.
    static let extendedSAR: UInt8 = 255

    /// Reads `vui_parameters()`.
    init(_ reader: inout H264BitReader) throws(BitstreamError) {
        if try reader.flag("aspect_ratio_info_present_flag") {
            let idc = UInt8(try reader.bits(8, "aspect_ratio_idc"))
            aspectRatioIdc = idc
            if idc == Self.extendedSAR {
                sarWidth = try reader.bits(16, "sar_width")
                sarHeight = try reader.bits(16, "sar_height")
            } else if idc >= 1 && Int(idc) <= Self.sampleAspectRatios.count {
                (sarWidth, sarHeight) = Self.sampleAspectRatios[Int(idc) - 1]
            }
        }
        if try reader.flag("overscan_info_present_flag") {
            overscanAppropriate = try reader.flag("overscan_appropriate_flag")
        }
        if try reader.flag("video_signal_type_present_flag") {
            videoFormat = try reader.bits(3, "video_format")
            videoFullRange = try reader.flag("video_full_range_flag")
            if try reader.flag("colour_description_present_flag") {
                colourPrimaries = try reader.bits(8, "colour_primaries")
                transferCharacteristics = try reader.bits(8, "transfer_characteristics")
                matrixCoefficients = try reader.bits(8, "matrix_coefficients")
            }
        }
        if try reader.flag("chroma_loc_info_present_flag") {
            chromaSampleLocTypeTopField = try reader.ue("chroma_sample_loc_type_top_field", in: 0...5)
            chromaSampleLocTypeBottomField = try reader.ue("chroma_sample_loc_type_bottom_field", in: 0...5)
        }
        timingInfoPresent = try reader.flag("timing_info_present_flag")
        if timingInfoPresent {
            numUnitsInTick = UInt32(try reader.bits(32, "num_units_in_tick"))
            timeScale = UInt32(try reader.bits(32, "time_scale"))
            fixedFrameRate = try reader.flag("fixed_frame_rate_flag")
        }
        if try reader.flag("nal_hrd_parameters_present_flag") {
            nalHRD = try H264HRDParameters(&reader)
        }
        if try reader.flag("vcl_hrd_parameters_present_flag") {
            vclHRD = try H264HRDParameters(&reader)
        }
        if nalHRD != nil || vclHRD != nil {
            lowDelayHRD = try reader.flag("low_delay_hrd_flag")
        }
        picStructPresent = try reader.flag("pic_struct_present_flag")
        bitstreamRestriction = try reader.flag("bitstream_restriction_flag")
        if bitstreamRestriction {
            motionVectorsOverPicBoundaries = try reader.flag("motion_vectors_over_pic_boundaries_flag")
            maxBytesPerPicDenom = try reader.ue("max_bytes_per_pic_denom", in: 0...16)
            maxBitsPerMbDenom = try reader.ue("max_bits_per_mb_denom", in: 0...16)
            log2MaxMvLengthHorizontal = try reader.ue("log2_max_mv_length_horizontal", in: 0...16)
            log2MaxMvLengthVertical = try reader.ue("log2_max_mv_length_vertical", in: 0...16)
            maxNumReorderFrames = try reader.ue("max_num_reorder_frames", in: 0...16)
            maxDecFrameBuffering = try reader.ue("max_dec_frame_buffering")
        }
    }
}
