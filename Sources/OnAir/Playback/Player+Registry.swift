#if canImport(OnAirPlayback)
import OnAirPlayback

extension Player {
    /// Checks the configuration without opening anything; a `-o` copy's container is the output
    /// registry's muxer for its extension.
    package convenience init(configuration: Configuration) throws(PlaybackError) {
        try self.init(configuration: configuration, containerMuxer: { OutputRegistry.containerMuxer(forExtension: $0) })
    }
}
#endif
