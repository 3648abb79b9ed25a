#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
#endif

extension EncoderAvailability {
    /// The H.264, H.265 and AAC encoders this platform offers and whether each opens here: tries
    /// to open every encoder with a small default setting (blocks for a moment).
    public static func list() -> [EncoderAvailability] {
        EncoderInventory.list()
    }
}

/// The H.264 and AAC encoders this platform offers and whether each opens here.
package enum EncoderInventory {
    /// Tries to open every encoder with a small default setting (blocks for a moment).
    public static func list() -> [EncoderAvailability] {
        #if canImport(OnAirFFmpeg)
        return EncoderCatalog.entries()
        #else
        return []
        #endif
    }
}
