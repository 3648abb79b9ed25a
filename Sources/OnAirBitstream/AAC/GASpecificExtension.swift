/// The fields of a GASpecificConfig that follow `extensionFlag == 1` (ISO/IEC 14496-3 4.4.1).
public struct GASpecificExtension: Sendable, Equatable {
    /// ER BSAC (object type 22): numOfSubFrame, 5 bits.
    public let numberOfSubFrames: Int?
    /// ER BSAC (object type 22): layer_length, 11 bits.
    public let layerLength: Int?
    /// ER AAC LC/LTP/scalable/LD: aacSectionDataResilienceFlag.
    public let sectionDataResilience: Bool?
    /// ER AAC LC/LTP/scalable/LD: aacScalefactorDataResilienceFlag.
    public let scalefactorDataResilience: Bool?
    /// ER AAC LC/LTP/scalable/LD: aacSpectralDataResilienceFlag.
    public let spectralDataResilience: Bool?
    /// extensionFlag3 (reserved for a later version of the standard).
    public let extensionFlag3: Bool

    /// Object types that carry numOfSubFrame and layer_length.
    static let bsacTypes: Set<Int> = [22]
    /// Object types that carry the three resilience flags.
    static let resilienceTypes: Set<Int> = [17, 19, 20, 23]

    /// Parses the extension fields for `audioObjectType`.
    static func parse(from reader: inout AACFieldReader, audioObjectType: Int) throws(BitstreamError)
        -> GASpecificExtension
    {
        var subFrames: Int?, layerLength: Int?
        if bsacTypes.contains(audioObjectType) {
            subFrames = try reader.read(5, "numOfSubFrame")
            layerLength = try reader.read(11, "layer_length")
        }
        var section: Bool?, scalefactor: Bool?, spectral: Bool?
        if resilienceTypes.contains(audioObjectType) {
            section = try reader.flag("aacSectionDataResilienceFlag")
            scalefactor = try reader.flag("aacScalefactorDataResilienceFlag")
            spectral = try reader.flag("aacSpectralDataResilienceFlag")
        }
        let flag3 = try reader.flag("extensionFlag3")
        return GASpecificExtension(
            numberOfSubFrames: subFrames, layerLength: layerLength,
            sectionDataResilience: section, scalefactorDataResilience: scalefactor,
            spectralDataResilience: spectral, extensionFlag3: flag3)
    }

    /// Writes the extension fields.
    func write(to writer: inout BitWriter) {
        if let subFrames = numberOfSubFrames { writer.write(subFrames, bits: 5) }
        if let layerLength { writer.write(layerLength, bits: 11) }
        for flag in [sectionDataResilience, scalefactorDataResilience, spectralDataResilience] {
            if let flag { writer.write(flag) }
        }
        writer.write(extensionFlag3)
    }
}
