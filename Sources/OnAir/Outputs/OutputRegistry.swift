import Foundation
import OnAirCore

import OnAirLive

#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
#endif
#if canImport(OnAirStreaming)
import OnAirStreaming
#endif

/// Every output kind OnAir writes or sends, declared once: files by extension, HLS by playlist
/// name, network destinations by URL scheme. The session builder, the command line and the
/// player's `-o` all pick kinds here; a new kind is one entry plus its own sink's files.
public enum OutputRegistry {
    #if canImport(OnAirStreaming)
    /// The kinds, most specific first (HLS before the plain extensions, URLs before files).
    package static let kinds: [OutputKind] = [whip] + network + [hls, annexB, annexBHEVC, adts] + containers
    #else
    /// The kinds where OnAirStreaming is not built (Apple platforms for now): files only.
    package static let kinds: [OutputKind] = [hls, annexB, annexBHEVC, adts] + containers
    #endif

    /// The kind for `output` (a path or URL); throws `SinkError.unknownOutput` when none takes it.
    package static func kind(for output: String) throws -> OutputKind {
        guard let kind = kinds.first(where: { $0.accepts(output) }) else {
            #if canImport(OnAirStreaming)
            if StreamTarget.isURL(output) {
                // The URL parser names what is wrong with it (scheme, host, port).
                _ = try StreamTarget(parsing: output)
            }
            #endif
            throw SinkError.unknownOutput(output)
        }
        return kind
    }

    /// Whether `output` is a URL (a network output) rather than a file path.
    public static func isURL(_ output: String) -> Bool { OutputKind.isURL(output) }

    /// Checks a network output's URL before anything opens: throws an `OnAirError` naming what is
    /// wrong with it (scheme, host, port, a WHIP endpoint's form). Returns a note worth showing
    /// when the URL is usable but weaker than it looks (an `rtsps://` server whose certificate is
    /// not checked), else nil.
    public static func checkURL(_ url: String) throws -> String? {
        #if canImport(OnAirStreaming)
        if WHIPEndpoint.accepts(url) {
            _ = try WHIPEndpoint(parsing: url)
            return nil
        }
        return try StreamTarget(parsing: url).uncheckedCertificateReason
        #else
        throw SinkError.unknownOutput(url)
        #endif
    }

    /// The libavformat muxer for a container file's extension, or nil when OnAir writes no container for it.
    public static func containerMuxer(forExtension ext: String) -> String? {
        containerTable.first { $0.extensions.contains(ext.lowercased()) }?.muxer
    }

    /// The playlist path when `output` names an HLS output (`….m3u8` or `hls:DIR`), else nil.
    public static func hlsPlaylist(for output: String) -> String? {
        if output.hasPrefix("hls:") {
            let directory = String(output.dropFirst(4))
            return directory.isEmpty ? nil : (directory as NSString).appendingPathComponent("stream.m3u8")
        }
        return output.lowercased().hasSuffix(".m3u8") && !OutputKind.isURL(output) ? output : nil
    }

    // MARK: - Files

    static let annexB = OutputKind(
        name: "h264", summary: "raw H.264, Annex-B, SPS/PPS before every IDR", role: .file, streams: [.video],
        form: "Annex-B", matches: OutputKind.byExtension(["h264", "264"]),
        make: { context in try AnnexBFileSink(path: context.name) })

    static let annexBHEVC = OutputKind(
        name: "h265", summary: "raw H.265, Annex-B, VPS/SPS/PPS before every IDR", role: .file, streams: [.video],
        form: "Annex-B", matches: OutputKind.byExtension(["h265", "265", "hevc"]),
        make: { context in try HEVCAnnexBFileSink(path: context.name) })

    static let adts = OutputKind(
        name: "aac", summary: "raw AAC with a 7-byte ADTS header per frame", role: .file, streams: [.audio],
        form: "ADTS", matches: OutputKind.byExtension(["aac", "adts"]),
        make: { context in try ADTSFileSink(path: context.name) })

    static let hls = OutputKind(
        name: "hls", summary: "HLS playlist and segments that each start on a keyframe", role: .file,
        streams: [.video, .audio], form: "MPEG-TS or fMP4 segments",
        matches: { hlsPlaylist(for: $0) != nil },
        keyFrameSpacing: { $0.hlsSegmentDuration.inSeconds },
        make: { context in
            #if canImport(OnAirFFmpeg)
            guard let playlist = hlsPlaylist(for: context.name) else { throw SinkError.unknownOutput(context.name) }
            return try HLSOutput.sink(playlist: playlist, streams: context.streams, options: context.options)
            #else
            throw SinkError.unknownOutput(context.name)
            #endif
        })

    /// Container files: extensions, libavformat muxer, streams.
    private static let containerTable: [(extensions: [String], muxer: String, streams: Set<MediaType>, summary: String)] = [
        (["mp4", "m4v"], "mp4", [.video, .audio], "MP4, fragmented (a killed process leaves a playable file) or --faststart"),
        (["m4a"], "mp4", [.audio], "MP4 audio"),
        (["mov"], "mov", [.video, .audio], "QuickTime"),
        (["ts", "m2ts", "mts"], "mpegts", [.video, .audio], "MPEG-TS"),
        (["flv"], "flv", [.video, .audio], "FLV"),
        (["mkv"], "matroska", [.video, .audio], "Matroska"),
    ]

    static let containers: [OutputKind] = containerTable.map { entry in
        OutputKind(
            name: entry.extensions[0], summary: entry.summary, role: .file,
            streams: entry.streams, form: entry.muxer == "mpegts" ? "\(entry.muxer) (Annex-B)" : "\(entry.muxer) (AVCC)",
            matches: OutputKind.byExtension(Set(entry.extensions)),
            make: { context in
                #if canImport(OnAirFFmpeg)
                // Each packet (for MP4, each finished fragment) goes to the file at once, so a killed
                // process leaves whole TS packets and whole fragments behind, never a torn one.
                var muxerOptions: [String: String] = ["flush_packets": "1"]
                if entry.muxer == "mp4" || entry.muxer == "mov" {
                    if context.options.faststart {
                        muxerOptions["movflags"] = "+faststart"
                    } else if context.options.fragmentedMP4 {
                        // delay_moov writes the header with the first fragment, once every track's
                        // start is known, so the edit list can hide AAC's priming.
                        muxerOptions["movflags"] = "+frag_keyframe+empty_moov+delay_moov+default_base_moof"
                    }
                }
                return ContainerSink(
                    destination: context.name, format: entry.muxer, streams: context.streams,
                    options: muxerOptions)
                #else
                throw SinkError.unknownOutput(context.name)
                #endif
            })
    }

    // MARK: - Network

    #if canImport(OnAirStreaming)

    static let whip = OutputKind(
        name: "whip", summary: "WebRTC publish to a WHIP endpoint (H.264 and Opus; whip+http(s)://host:port/path)",
        role: .network, streams: [.video, .audio], form: "RTP over DTLS-SRTP (H.264, Opus)",
        matches: { WHIPEndpoint.accepts($0) },
        make: { context in
            let endpoint = try WHIPEndpoint(parsing: context.name)
            #if canImport(OnAirGStreamer) && canImport(OnAirFFmpeg) && canImport(OnAirHTTP)
            return try WHIPSink(
                endpoint: endpoint, token: context.streaming.bearerToken, streams: context.streams,
                policy: context.streaming.reconnect, tls: context.streaming.tls, events: context.connectionEvents)
            #else
            throw SinkError.unknownOutput(endpoint.name)
            #endif
        })

    static let network: [OutputKind] = [
        ("rtmp", "FLV over RTMP (publish)"),
        ("rtmps", "FLV over RTMP in TLS"),
        ("srt", "MPEG-TS over SRT (libsrt), caller or listener"),
        ("udp", "MPEG-TS over UDP"),
        ("tcp", "MPEG-TS over TCP, connecting or listening"),
        ("rtsp", "RTP publish to an RTSP server (ANNOUNCE/RECORD, interleaved over TCP)"),
        ("rtsps", "RTP publish to an RTSP server inside TLS (the server's certificate is not checked)"),
    ].map { scheme, summary in
        OutputKind(
            name: scheme, summary: summary, role: .network, streams: [.video, .audio],
            form: scheme.hasPrefix("rtmp") ? "flv (AVCC)" : scheme.hasPrefix("rtsp") ? "RTP (RFC 6184, RFC 3640)" : "mpegts (Annex-B)",
            matches: OutputKind.byScheme(scheme),
            make: { context in
                var target = try StreamTarget(parsing: context.name)
                target.tls = context.streaming.tls
                return NetworkSink(
                    target: target, streams: context.streams, policy: context.streaming.reconnect,
                    sendBufferBytes: context.sendBufferBytes, events: context.connectionEvents)
            })
    }
    #endif
}
