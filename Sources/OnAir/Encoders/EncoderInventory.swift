#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
#endif

/// The H.264 and AAC encoders this platform offers and whether each opens here.
public enum EncoderInventory {
    /// Tries to open every encoder with a small default setting (blocks for a moment).
    public static func list() -> [EncoderAvailability] {
        #if canImport(OnAirFFmpeg)
        return EncoderCatalog.entries()
        #else
        return []
        #endif
    }
}
