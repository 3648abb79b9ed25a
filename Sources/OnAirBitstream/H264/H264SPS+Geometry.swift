extension H264SPS {
    /// `ChromaArrayType`: 0 for monochrome or separately coded colour planes, else `chromaFormatIdc`.
    public var chromaArrayType: Int { separateColourPlane ? 0 : chromaFormatIdc }

    /// `SubWidthC`: horizontal chroma subsampling (2 for 4:2:0 and 4:2:2, else 1).
    public var subWidthC: Int { chromaFormatIdc == 1 || chromaFormatIdc == 2 ? 2 : 1 }

    /// `SubHeightC`: vertical chroma subsampling (2 for 4:2:0, else 1).
    public var subHeightC: Int { chromaFormatIdc == 1 ? 2 : 1 }

    /// `CropUnitX`: samples per horizontal crop offset.
    public var cropUnitX: Int { chromaArrayType == 0 ? 1 : subWidthC }

    /// `CropUnitY`: lines per vertical crop offset (doubled when fields may be coded).
    public var cropUnitY: Int { (chromaArrayType == 0 ? 1 : subHeightC) * (frameMbsOnly ? 1 : 2) }

    /// `FrameHeightInMbs`: the frame height in macroblocks.
    public var frameHeightInMbs: Int { (frameMbsOnly ? 1 : 2) * picHeightInMapUnits }

    /// `PicSizeInMapUnits`: the number of slice-group map units in a picture.
    public var picSizeInMapUnits: Int { picWidthInMbs * picHeightInMapUnits }

    /// The decoded width before cropping: whole macroblocks.
    public var codedWidth: Int { picWidthInMbs * 16 }

    /// The decoded height before cropping: whole macroblocks (a 1080p stream codes 1088 lines).
    public var codedHeight: Int { frameHeightInMbs * 16 }

    /// The displayed width after frame cropping.
    public var width: Int { codedWidth - (frameCropLeft + frameCropRight) * cropUnitX }

    /// The displayed height after frame cropping.
    public var height: Int { codedHeight - (frameCropTop + frameCropBottom) * cropUnitY }

    /// Whether the stream may contain field pictures or MBAFF frames (`frame_mbs_only_flag` is 0).
    public var mayBeInterlaced: Bool { !frameMbsOnly }

    /// The frame rate from the VUI timing, `time_scale / (2 * num_units_in_tick)`, when present
    /// and non-zero.
    public var frameRate: Double? {
        guard let vui, vui.timingInfoPresent, vui.numUnitsInTick > 0, vui.timeScale > 0 else { return nil }
        return Double(vui.timeScale) / (2 * Double(vui.numUnitsInTick))
    }

    /// The frame rate as a reduced fraction (numerator, denominator), e.g. (30000, 1001), when the
    /// VUI carries timing.
    public var frameRateFraction: (numerator: Int, denominator: Int)? {
        guard let vui, vui.timingInfoPresent, vui.numUnitsInTick > 0, vui.timeScale > 0 else { return nil }
        var numerator = Int(vui.timeScale)
        var denominator = 2 * Int(vui.numUnitsInTick)
        var a = numerator, b = denominator
        while b != 0 { (a, b) = (b, a % b) }
        numerator /= a
        denominator /= a
        return (numerator, denominator)
    }

    /// How many frames the decoder must hold back for reordering: the VUI's
    /// `max_num_reorder_frames` when present; 0 for intra-only profiles and for streams without
    /// reference frames (as FFmpeg's `has_b_frames`); else `nil` (not signalled).
    public var reorderDepth: Int? {
        if let reorder = vui?.maxNumReorderFrames { return reorder }
        return isIntraProfile || maxNumRefFrames == 0 ? 0 : nil
    }
}
