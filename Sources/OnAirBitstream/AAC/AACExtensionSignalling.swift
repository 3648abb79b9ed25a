/// How an AudioSpecificConfig signals SBR/PS (ISO/IEC 14496-3 1.6.5), kept so a parsed config
/// is written back the same way.
public enum AACExtensionSignalling: Sendable, Equatable {
    /// No extension is signalled in the config (SBR may still be implicit in the stream).
    case none
    /// Explicit hierarchical signalling: the first object type is 5 (SBR) or 29 (PS).
    case explicitHierarchical
    /// Explicit backward-compatible signalling: a 0x2b7 sync extension after the core config.
    case syncExtension
}
