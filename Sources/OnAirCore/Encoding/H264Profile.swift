extension H264ProfileLevel {
    /// The H.264 profiles OnAir encodes.
    public enum Profile: String, Sendable, Codable, Hashable, CaseIterable {
        /// Constrained Baseline: no B-frames, CAVLC only; the most compatible.
        case baseline
        /// Main: B-frames and CABAC.
        case main
        /// High: adds 8×8 transforms; 1.25× the bit-rate limits of Main.
        case high

        /// `profile_idc` as written in the SPS.
        public var profileIDC: Int {
            switch self {
            case .baseline: return 66
            case .main: return 77
            case .high: return 100
            }
        }

        /// The factor applied to Table A-1's MaxBR and MaxCPB (cpbBrVclFactor / 1000, Table A-2).
        public var bitRateFactor: Double { self == .high ? 1.25 : 1.0 }
    }
}

/// `H264ProfileLevel.Profile` by its short name, inside the package.
package typealias H264Profile = H264ProfileLevel.Profile
