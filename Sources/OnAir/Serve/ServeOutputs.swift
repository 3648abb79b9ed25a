import Foundation
import OnAirCore
#if canImport(OnAirHTTP) && canImport(OnAirFFmpeg)

/// Everything `onair serve` adds to a live session: the hub, one muxer sink per container (MPEG-TS,
/// fragmented MP4), a live HLS output in a private directory, and the HTTP server over them.
///
/// The sinks go to the `LiveSession` as ordinary sinks; the server starts at once and serves
/// viewers as soon as the first keyframe is muxed.
public final class ServeOutputs: @unchecked Sendable {
    /// The fan-out hub.
    public let hub: ServeHub
    /// The HTTP server.
    public let server: ServeServer
    /// The sinks to hand to the session (the muxers and the HLS output).
    public let sinks: [any PacketSink]
    /// The directory of the live HLS playlist, removed by `stop()`.
    public let hlsDirectory: String

    /// Builds the outputs for `streams` of about `streamBitRate` bits per second. Without an
    /// explicit queue bound, each viewer may fall 2 s of stream behind (at least 512 KiB) before skipping.
    public init(configuration: ServeConfiguration, streams: Set<MediaType>, streamBitRate: Int,
                hlsSegmentDuration: Double = 2, explicitQueueBytes: Int? = nil) throws {
        var configuration = configuration
        configuration.limits.viewerQueueBytes = explicitQueueBytes ?? max(512 * 1024, streamBitRate / 8 * 2)
        hub = ServeHub(formats: [.mpegTS, .fragmentedMP4], limits: configuration.limits)
        hlsDirectory = (NSTemporaryDirectory() as NSString).appendingPathComponent("onair-serve-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        var options = SinkFactory.ContainerOptions()
        options.hlsSegmentDuration = hlsSegmentDuration
        options.hlsListSize = 6
        let playlist = (hlsDirectory as NSString).appendingPathComponent("stream.m3u8")
        sinks = [
            try ServeMuxSink(format: .mpegTS, streams: streams, hub: hub),
            try ServeMuxSink(format: .fragmentedMP4, streams: streams, hub: hub),
            try HLSOutput.sink(playlist: playlist, streams: streams, options: options),
        ]
        server = try ServeServer(configuration: configuration, hub: hub, hlsDirectory: hlsDirectory,
                                 srtPort: configuration.srtPort)
    }

    /// Ends every viewer, stops the server and removes the HLS directory.
    public func stop() {
        server.stop()
        try? FileManager.default.removeItem(atPath: hlsDirectory)
    }
}
#endif
