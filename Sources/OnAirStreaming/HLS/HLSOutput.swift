#if os(Linux)
import Foundation
import OnAirCore

#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
import OnAirLive

/// Builds the sink that writes an HLS playlist and its segments with libavformat's hls muxer.
package enum HLSOutput {
    /// A sink writing `playlist` (its directory is created) with segments next to it: MPEG-TS
    /// (`segment_N.ts`) or fragmented MP4 (`init.mp4` + `segment_N.m4s`).
    ///
    /// The muxer cuts a segment at the first keyframe after each `hlsSegmentDuration`, so the
    /// encoder's keyframe interval should divide the segment duration.
    public static func sink(
        playlist: String, streams: Set<MediaType>,
        options: OutputOptions
    ) throws -> any PacketSink {
        guard options.hlsSegmentDuration > .zero, options.hlsSegmentDuration <= .seconds(3600) else {
            throw SettingsError(field: "hlsSegmentDuration", value: "\(options.hlsSegmentDuration.inSeconds)", allowed: "0 < S ≤ 3600")
        }
        guard options.hlsListSize >= 0 else {
            throw SettingsError(field: "hlsListSize", value: "\(options.hlsListSize)", allowed: "0 (all) or more")
        }
        let directory = (playlist as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw SinkError.writeFailed(destination: playlist, reason: "cannot create \(directory): \(error.localizedDescription)")
            }
        }
        let prefix = directory.isEmpty ? "" : directory + "/"
        var muxerOptions: [String: String] = [
            "hls_time": String(format: "%g", options.hlsSegmentDuration.inSeconds),
            "hls_list_size": "\(options.hlsListSize)",
            // Every segment starts with a keyframe; the playlist says so.
            "hls_flags": "independent_segments" + (options.hlsListSize > 0 ? "+delete_segments" : ""),
        ]
        if options.hlsFragmentedMP4 {
            muxerOptions["hls_segment_type"] = "fmp4"
            muxerOptions["hls_fmp4_init_filename"] = "init.mp4"
            muxerOptions["hls_segment_filename"] = prefix + "segment_%d.m4s"
        } else {
            muxerOptions["hls_segment_type"] = "mpegts"
            muxerOptions["hls_segment_filename"] = prefix + "segment_%d.ts"
        }
        return ContainerSink(destination: playlist, format: "hls", streams: streams, options: muxerOptions)
    }
}
#endif
#endif
