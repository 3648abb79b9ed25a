import Foundation
import OnAirCore
#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
#endif

/// Picks the sink for an output named on the command line, by its extension.
public enum SinkFactory {
    /// Options that change how container files are written.
    public struct ContainerOptions: Sendable {
        /// Write MP4 as fragments so a killed process leaves a playable file (default true).
        public var fragmentedMP4 = true
        /// Write a classic MP4 with the index at the front instead (needs a clean finish).
        public var faststart = false
        /// HLS outputs: the target segment duration in seconds (segments start on keyframes).
        public var hlsSegmentDuration = 2.0
        /// HLS outputs: how many segments the playlist lists (0 keeps them all, a VOD-style playlist).
        public var hlsListSize = 6
        /// HLS outputs: fragmented-MP4 (CMAF) segments instead of MPEG-TS.
        public var hlsFragmentedMP4 = false
        /// Creates the default options.
        public init() {}
    }

    /// A sink for `path`: `.h264`/`.264` Annex-B, `.aac` ADTS, or a container by extension.
    /// HLS outputs are a playlist path ending in `.m3u8` or `hls:DIR` (the playlist `DIR/stream.m3u8`);
    /// `udp://host:port` sends live MPEG-TS.
    public static func sink(for path: String, streams: Set<MediaType>, options: ContainerOptions = ContainerOptions()) throws -> any PacketSink {
        if let playlist = hlsPlaylist(for: path) {
            #if canImport(OnAirFFmpeg)
            return try HLSOutput.sink(playlist: playlist, streams: streams, options: options)
            #else
            throw SinkError.unknownOutput(path)
            #endif
        }
        if path.lowercased().hasPrefix("udp://") {
            #if canImport(OnAirFFmpeg)
            // Live MPEG-TS over UDP through the same network output as `onair stream udp://…`:
            // its muxer options and datagram size, every packet sent at once or dropped, never waited on.
            return NetworkSink(target: try StreamTarget(parsing: path), streams: streams)
            #else
            throw SinkError.unknownOutput(path)
            #endif
        }
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        switch ext {
        case "h264", "264":
            return try AnnexBFileSink(path: path)
        case "aac", "adts":
            return try ADTSFileSink(path: path)
        default:
            #if canImport(OnAirFFmpeg)
            guard let muxer = ContainerSink.muxer(forExtension: ext) else { throw SinkError.unknownOutput(path) }
            // Each packet (for MP4, each finished fragment) goes to the file at once, so a killed
            // process leaves whole TS packets and whole fragments behind, never a torn one.
            var muxerOptions: [String: String] = ["flush_packets": "1"]
            if muxer == "mp4" || muxer == "mov" {
                if options.faststart {
                    muxerOptions["movflags"] = "+faststart"
                } else if options.fragmentedMP4 {
                    // delay_moov writes the header with the first fragment, once every track's
                    // start is known, so the edit list can hide AAC's priming.
                    muxerOptions["movflags"] = "+frag_keyframe+empty_moov+delay_moov+default_base_moof"
                }
            }
            return ContainerSink(destination: path, format: muxer, streams: streams, options: muxerOptions)
            #else
            throw SinkError.unknownOutput(path)
            #endif
        }
    }

    /// `video` as `outputs` need it: with an HLS output, a keyframe at least once per segment
    /// (`options.hlsSegmentDuration`), since every segment starts on one. Other outputs take the
    /// settings as they are.
    public static func videoSettings(_ video: VideoEncoderSettings, for outputs: [String],
                                     options: ContainerOptions = ContainerOptions()) -> VideoEncoderSettings {
        guard outputs.contains(where: { hlsPlaylist(for: $0) != nil }) else { return video }
        return video.withKeyFrames(atLeastEvery: options.hlsSegmentDuration)
    }

    /// The streams an output can carry: `.h264` only video, `.aac` only audio, containers both.
    public static func streams(for path: String) -> Set<MediaType> {
        if hlsPlaylist(for: path) != nil || path.lowercased().hasPrefix("udp://") { return [.video, .audio] }
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "h264", "264": return [.video]
        case "aac", "adts", "m4a": return [.audio]
        default: return [.video, .audio]
        }
    }

    /// The playlist path when `output` names an HLS output (`….m3u8` or `hls:DIR`), else nil.
    public static func hlsPlaylist(for output: String) -> String? {
        if output.hasPrefix("hls:") {
            let directory = String(output.dropFirst(4))
            return directory.isEmpty ? nil : (directory as NSString).appendingPathComponent("stream.m3u8")
        }
        return output.lowercased().hasSuffix(".m3u8") ? output : nil
    }
}
