#if os(Linux)
import Foundation

/// A multivariant HLS playlist: one `EXT-X-STREAM-INF` per encode with what a player chooses by
/// (`BANDWIDTH`, `CODECS`, `RESOLUTION`, `FRAME-RATE`) before it loads any segment. Apple's players
/// need `CODECS` to play H.265 (`hvc1.…`).
package struct HLSMultivariantPlaylist: Sendable, Equatable {
    /// One encode's media playlist and what describes it.
    package struct Variant: Sendable, Equatable {
        /// The media playlist's URI (`live.m3u8`).
        package var uri: String
        /// The peak bit rate in bits per second (segments' bytes over their durations).
        package var bandwidth: Int
        /// The RFC 6381 codec strings of its streams (`hvc1.1.6.L93.B0`, `mp4a.40.2`).
        package var codecs: [String]
        /// The picture size, when it has video.
        package var resolution: (width: Int, height: Int)?
        /// Frames per second, when known.
        package var frameRate: Double?

        /// A variant at `uri`.
        package init(uri: String, bandwidth: Int, codecs: [String], resolution: (width: Int, height: Int)?, frameRate: Double?) {
            self.uri = uri
            self.bandwidth = bandwidth
            self.codecs = codecs
            self.resolution = resolution
            self.frameRate = frameRate
        }

        package static func == (lhs: Variant, rhs: Variant) -> Bool {
            lhs.uri == rhs.uri && lhs.bandwidth == rhs.bandwidth && lhs.codecs == rhs.codecs
                && lhs.resolution?.width == rhs.resolution?.width && lhs.resolution?.height == rhs.resolution?.height
                && lhs.frameRate == rhs.frameRate
        }
    }

    /// The variants, the preferred first.
    package var variants: [Variant]

    /// A playlist of `variants`.
    package init(variants: [Variant]) {
        self.variants = variants
    }

    /// The playlist's text (version 7: fMP4 variants may be among them).
    package var text: String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"]
        for variant in variants {
            var attributes = ["BANDWIDTH=\(max(1, variant.bandwidth))"]
            if !variant.codecs.isEmpty { attributes.append("CODECS=\"\(variant.codecs.joined(separator: ","))\"") }
            if let size = variant.resolution { attributes.append("RESOLUTION=\(size.width)x\(size.height)") }
            if let rate = variant.frameRate, rate > 0 { attributes.append("FRAME-RATE=\(String(format: "%.3f", rate))") }
            lines.append("#EXT-X-STREAM-INF:" + attributes.joined(separator: ","))
            lines.append(variant.uri)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
#endif
