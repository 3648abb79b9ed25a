extension VideoEncoderSettings {
    /// The largest picture H.265 allows at its highest level (6.2: MaxLumaPs, ITU-T H.265 table A.8).
    static let hevcMaxLumaPictureSize = 35_651_584

    /// The H.265 checks after the shared ones: Main only (Main 10 refused with the reason) and a
    /// picture within level 6.2.
    func validateHEVC() throws(SettingsError) {
        guard hevcProfileLevel == .mainAutoLevel else {
            throw SettingsError(field: "hevcProfileLevel", value: hevcProfileLevel.rawValue, allowed: HEVCProfileLevel.main10Refusal)
        }
        guard width * height <= Self.hevcMaxLumaPictureSize else {
            throw SettingsError(
                field: "width", value: "\(width)x\(height)", allowed: "at most \(Self.hevcMaxLumaPictureSize) pixels (H.265 level 6.2)")
        }
    }
}
