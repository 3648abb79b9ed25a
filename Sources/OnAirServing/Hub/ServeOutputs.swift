#if os(Linux)
import Foundation
import OnAirCore
import OnAirHTTP
import OnAirLive
import OnAirStreaming

#if canImport(OnAirHTTP) && canImport(OnAirFFmpeg)

/// Everything `onair serve` adds to a live session: the hub, one muxer sink per container (MPEG-TS,
/// fragmented MP4), a live HLS output in a private directory (MPEG-TS segments for H.264, fMP4 for
/// H.265), the HTTP server over them and, when asked, an SRT listener for callers.
///
/// The sinks go to the `LiveSession` as ordinary sinks; the server starts at once and serves
/// viewers as soon as the first keyframe is muxed.
/// Unchecked Sendable: `sinks` and `renditionSinks` (muxers over C contexts, not Sendable) are handed to the session once, each then used only on its runner's thread
package final class ServeOutputs: @unchecked Sendable {
    /// The fan-out hub.
    public let hub: ServeHub
    /// The HTTP server.
    public let server: ServeServer
    /// The sinks to hand to the session (the muxers and the HLS output).
    public let sinks: [any PacketSink]
    /// The sinks of each further encode (`renditions`), by name: the same forms as the main
    /// encode's, served under the name (`/sub.ts`, `/sub.mp4`, `/sub.m3u8`, `rtsp://…/sub`).
    package let renditionSinks: [String: [any PacketSink]]
    /// The SRT listener for callers (when `configuration.srtPort` is set).
    public let srt: ServeSRTListener?
    /// The RTSP face (when `configuration.rtspPort` is set).
    public let rtsp: ServeRTSPFace?
    /// The WebRTC face (WHEP at `/whep`, when `configuration.webRTC` is set).
    public let webRTC: WebRTCFace?
    /// The WebRTC face of each further encode (WHEP at `/NAME/whep`), by name.
    package let renditionFaces: [String: WebRTCFace]
    /// The health judge (`/healthz`, the systemd watchdog), fed by a progress sink among `sinks`.
    public let health: ServeHealth
    /// The motion detector's changes (`--motion`): `/metrics` and the ONVIF events.
    package let motion = ServeMotion()
    /// systemd's notification socket (`NOTIFY_SOCKET`), when the service manager gave one.
    private let notifier = SystemdNotifier()
    /// The directory of the live HLS playlist, removed by `stop()`.
    public let hlsDirectory: String
    /// What the outputs were built with.
    private let configuration: ServeConfiguration
    /// Whether the RTSP face was started asking for credentials (a token or users; only then can it ask for one).
    private let rtspAsksCredentials: Bool

    /// Builds the outputs for `streams` of about `streamBitRate` bits per second. Without an
    /// explicit queue bound, each viewer may hold 4 s of stream (at least 1 MiB: a joining viewer's
    /// first burst is up to a whole GOP from the keyframe cache) before skipping. `profile` is the
    /// encode's H.264 profile, which WebRTC viewers' offers must be able to decode. `renditions`
    /// names the further encodes of the capture, each served under its name; `codecs` gives the
    /// video codec of each encode by name (`ServeHub.main` for the main one), H.264 where it says none.
    /// `hlsVariant` chooses the live HLS (H.265 is fMP4 in every variant); Low-Latency HLS cuts
    /// parts of `hlsPartDuration` seconds, dated by `programDate` (the session's anchored time line).
    public init(
        configuration: ServeConfiguration, streams: Set<MediaType>, streamBitRate: Int,
        hlsSegmentDuration: Double = 2, hlsVariant: HLSVariant = .mpegts, hlsPartDuration: Double = 0.2,
        programDate: @escaping @Sendable () -> Date = { Date() }, explicitQueueBytes: Int? = nil,
        profile: H264Profile = .baseline, renditions: [String] = [], codecs: [String: MediaCodec] = [:]
    ) throws {
        let codec = { (name: String) in codecs[name] ?? .h264 }
        var configuration = configuration
        rtspAsksCredentials = !configuration.tokens.isEmpty || !configuration.users.isEmpty
        configuration.limits.viewerQueueBytes = explicitQueueBytes ?? max(1024 * 1024, streamBitRate / 8 * 4)
        self.configuration = configuration
        let hub = ServeHub(
            formats: configuration.servesRTSP ? [.mpegTS, .fragmentedMP4, .elementary] : [.mpegTS, .fragmentedMP4],
            renditions: renditions, limits: configuration.limits)
        self.hub = hub
        hlsDirectory = (NSTemporaryDirectory() as NSString).appendingPathComponent(
            "onair-serve-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        var options = OutputOptions()
        options.hlsSegmentDuration = .seconds(hlsSegmentDuration)
        options.hlsListSize = 6
        let playlist = (hlsDirectory as NSString).appendingPathComponent("stream.m3u8")
        let elementary = ServeElementarySink(
            streams: streams, hub: hub, codec: codec(ServeHub.main), rtpTimestampsFromTimeline: configuration.timelineStart > 0)
        let hlsDiscontinuities = ServeHLSDiscontinuities()
        let health = ServeHealth(streams: streams)
        self.health = health
        // WHEP viewers: host candidates on the listening address unless it is every interface.
        let candidateAddress = ["0.0.0.0", "::", "[::]"].contains(configuration.host) ? nil : configuration.host
        var webRTCConfiguration = configuration.webRTC
        webRTCConfiguration?.timelineStart = configuration.timelineStart
        // WebRTC carries H.264 only: an H.265 encode has no face (WHEP answers from an H.264 one, or 415).
        let webRTC = try webRTCConfiguration.flatMap { webRTC in
            try codec(ServeHub.main) == .h264
                ? WebRTCFace(configuration: webRTC, streams: streams, profile: profile, localAddress: candidateAddress) : nil
        }
        self.webRTC = webRTC
        var renditionFaces: [String: WebRTCFace] = [:]
        do {
            for name in renditions where codec(name) == .h264 {
                renditionFaces[name] = try webRTCConfiguration.map {
                    try WebRTCFace(configuration: $0, streams: streams, profile: profile, localAddress: candidateAddress)
                }
            }
        } catch {
            for face in [webRTC] + Array(renditionFaces.values) { face?.stop() }
            throw error
        }
        self.renditionFaces = renditionFaces
        let faces = [webRTC].compactMap { $0 } + renditionFaces.values
        // Every face's viewers count against the one limit.
        if !faces.isEmpty { hub.setExternalViewers { faces.map(\.viewerCount).reduce(0, +) } }
        let stopFaces = { for face in faces { face.stop() } }
        // HLS: MPEG-TS segments from libavformat's hls muxer for H.264 in the `mpegts` variant; fMP4
        // (the only HLS of H.265 Apple plays) from the writer of our own otherwise, with the parts
        // of Low-Latency HLS published to a feed per encode. Each encode's variant is measured for `/index.m3u8`.
        var variants: [(uri: String, variant: ServeHLSVariant)] = []
        var feeds: [String: LowLatencyHLSFeed] = [:]
        let hls = { (playlist: String, name: String) throws -> [any PacketSink] in
            let variant = ServeHLSVariant(segmentDuration: hlsSegmentDuration, bitRate: streamBitRate)
            variants.append((name == ServeHub.main ? "live.m3u8" : name + ".m3u8", variant))
            guard !hlsVariant.isFragmentedMP4(h264: codec(name) == .h264) else {
                let feed: LowLatencyHLSFeed? = hlsVariant == .lowlatency ? LowLatencyHLSFeed() : nil
                feeds[name] = feed
                return [
                    try FragmentedHLSWriter(
                        playlist: playlist, streams: streams, segmentDuration: hlsSegmentDuration, windowSize: options.hlsListSize,
                        partDuration: feed == nil ? nil : hlsPartDuration, feed: feed, programDate: programDate),
                    variant,
                ]
            }
            let muxer = try HLSOutput.sink(playlist: playlist, streams: streams, options: options)
            return [name == ServeHub.main ? ServeHLSSink(muxer, playlist: playlist, discontinuities: hlsDiscontinuities) : muxer, variant]
        }
        sinks =
            [
                try ServeMuxSink(format: .mpegTS, streams: streams, hub: hub),
                try ServeMuxSink(format: .fragmentedMP4, streams: streams, hub: hub),
            ] + (try hls(playlist, ServeHub.main)) + (configuration.servesRTSP ? [elementary] : [])
            + (webRTC.map { [$0] } ?? []) + [ServeProgressSink(health: health)]
        // Each further encode: the same containers and HLS (in a folder of its own), its own RTSP path.
        var renditionSinks: [String: [any PacketSink]] = [:]
        var renditionSources: [ServeElementarySink] = []
        for name in renditions {
            let elementary = ServeElementarySink(
                streams: streams, hub: hub, rendition: name, codec: codec(name), rtpTimestampsFromTimeline: configuration.timelineStart > 0)
            if configuration.servesRTSP { renditionSources.append(elementary) }
            let folder = ServeServer.hlsDirectory(of: name, in: hlsDirectory)
            renditionSinks[name] =
                [
                    try ServeMuxSink(format: .mpegTS, streams: streams, hub: hub, rendition: name),
                    try ServeMuxSink(format: .fragmentedMP4, streams: streams, hub: hub, rendition: name),
                ] + (try hls((folder as NSString).appendingPathComponent("stream.m3u8"), name))
                + (configuration.servesRTSP ? [elementary] : []) + (renditionFaces[name].map { [$0] } ?? [])
        }
        self.renditionSinks = renditionSinks
        // SRT callers need the newest token (the last listed) as passphrase when there is one; the
        // access policy numbers the tokens from 1 in their order.
        let srt: ServeSRTListener?
        do {
            srt = try configuration.srtPort.map { port in
                try ServeSRTListener(
                    host: configuration.host, port: port, passphrase: configuration.tokens.last,
                    number: configuration.tokens.count, hub: hub)
            }
        } catch {
            stopFaces()
            throw error
        }
        self.srt = srt
        let rtsp: ServeRTSPFace?
        // Read once, for HTTPS and RTSPS alike (a self-signed pair is made here at the first start).
        let loadedTLS: ServeTLS.Loaded?
        do {
            loadedTLS = try configuration.tls?.load(host: configuration.host)
            if configuration.servesRTSP {
                rtsp = try ServeRTSPFace(
                    configuration: configuration, port: configuration.rtspPort, tlsPort: configuration.rtspsPort,
                    tls: try Self.rtspsCredentials(configuration, loadedTLS), hub: hub, source: elementary, renditions: renditionSources)
            } else {
                rtsp = nil
            }
        } catch {
            srt?.stop()
            stopFaces()
            throw error
        }
        self.rtsp = rtsp
        do {
            server = try ServeServer(
                configuration: configuration, hub: hub, hlsDirectory: hlsDirectory, srtPort: srt?.port,
                webRTC: webRTC, renditionFaces: renditionFaces, loadedTLS: loadedTLS)
            server.serveObservability(health: health, motion: motion)
            server.serveHLSDiscontinuities(hlsDiscontinuities)
            server.serveHLSVariants(variants)
            server.serveLowLatencyHLS(feeds)
            let access = server.access
            hub.setCredentialCheck { access.stillAdmits($0) }
            for face in faces { face.setCredentialCheck { access.stillAdmits($0) } }
            rtsp?.setAccess(access)
            rtsp?.setTokens(access.numberedTokens) { access.stillAdmits($0) }
            srt?.setTokens(access.numberedTokens, open: access.isOpen)
        } catch {
            srt?.stop()
            stopFaces()
            rtsp?.stop()
            throw error
        }
    }

    /// The certificate and key RTSPS presents: HTTPS's (`loaded`), nil without `rtspsPort`.
    static func rtspsCredentials(_ configuration: ServeConfiguration, _ loaded: ServeTLS.Loaded?) throws -> HTTPTLSCredentials? {
        guard configuration.rtspsPort != nil else { return nil }
        guard let credentials = loaded?.credentials else {
            throw ServeTLSError("--rtsps-port serves RTSP over TLS: it needs --tls-cert/--tls-key or --tls-self-signed")
        }
        return credentials
    }

    /// Reads the TLS certificate and key again (a renewal) once, for HTTPS and RTSPS: new
    /// connections get them, those open keep theirs. Returns the certificate's SHA-256 fingerprint.
    package func reloadCertificate() throws -> String {
        let loaded = try server.reloadedCertificate()
        if let rtsp, rtsp.tlsPort != nil, let credentials = try Self.rtspsCredentials(configuration, loaded) {
            try rtsp.setTLS(credentials)
        }
        return loaded.fingerprint
    }

    /// `video` as serving needs it: no B-frames (fragmented MP4 in browsers, low delay for every
    /// viewer) and a keyframe at least once per HLS segment of `hlsSegmentDuration` seconds.
    public static func videoSettings(_ video: VideoEncoderSettings, hlsSegmentDuration: Double) -> VideoEncoderSettings {
        var changed = video.withKeyFrames(atLeastEvery: hlsSegmentDuration)
        changed.allowFrameReordering = false
        return changed
    }

    /// Under systemd (`Type=notify`): `READY=1` now (every listener is up once these outputs
    /// exist), `WATCHDOG=1` and `STATUS=` (viewers, fps) from the frame path, `STOPPING=1` at `stop()`.
    /// `statistics` gives the session's latest figures. Nothing without `NOTIFY_SOCKET`.
    package func notifySystemd(statistics: @escaping @Sendable () -> LiveStatistics?) {
        guard let notifier else { return }
        let hub = self.hub
        let webRTC = self.webRTC
        let watchdog = ServeWatchdog(notifier: notifier, interval: notifier.watchdogInterval) {
            let viewers = hub.statistics().viewers.count + (webRTC?.viewerCount ?? 0)
            let fps = statistics()?.fpsOut ?? 0
            return "serving \(viewers) viewer\(viewers == 1 ? "" : "s"), \(String(format: "%.1f", fps)) fps"
        }
        let paced: MediaType = health.streams.contains(.video) ? .video : .audio
        health.onPacket { type in if type == paced { watchdog.framePassed() } }
        notifier.send("READY=1\nSTATUS=serving on port \(server.port)")
    }

    /// Puts a reload's `tokens` and `users` (nil: unchanged) in force on every face and cuts every
    /// viewer admitted by a token no longer listed, or by a user removed or whose password or `read`
    /// permission changed; the others keep playing. Returns how many were cut. SRT's passphrase
    /// for new callers becomes the newest token (the last listed).
    @discardableResult
    package func setCredentials(tokens: [String]?, users: [ServeUser]?) -> Int {
        let access = server.access
        if let tokens { access.setTokens(tokens) }
        if let users { access.setUsers(users) }
        rtsp?.setTokens(access.numberedTokens) { access.stillAdmits($0) }
        srt?.setTokens(access.numberedTokens, open: access.isOpen)
        let admits = { (credential: ServeCredential) in access.stillAdmits(credential) }
        let faces = [webRTC].compactMap { $0 } + renditionFaces.values
        return hub.cutViewers(stillAdmits: admits) + faces.map { $0.cutViewers(stillAdmits: admits) }.reduce(0, +)
    }

    /// The faces that admit no one now, each with what would open it again: SRT when credentials
    /// are asked for and no listed token can be its passphrase (10–79 characters; users it cannot
    /// check); RTSP started without a token once credentials are asked for (it cannot ask for any
    /// until a restart), or started with tokens when a reload left none.
    package var lockedFaces: [(face: String, until: String)] {
        var locked: [(face: String, until: String)] = []
        if srt?.isLocked == true { locked.append(("SRT", "a reload lists a token of 10–79 characters (its passphrase)")) }
        if rtsp?.isLocked == true {
            // Started with a token, the face asks for one and takes the list a reload gives.
            locked.append(
                rtspAsksCredentials
                    ? ("RTSP", "a reload lists a token again")
                    : ("RTSP", "a restart (started without a token, it cannot ask for one) or a reload that asks for no credentials"))
        }
        return locked
    }

    /// Ends every viewer, stops the server and removes the HLS directory.
    public func stop() {
        notifier?.send("STOPPING=1")
        server.stop()
        srt?.stop()
        rtsp?.stop()
        webRTC?.stop()
        for face in renditionFaces.values { face.stop() }
        try? FileManager.default.removeItem(atPath: hlsDirectory)
    }
}
#endif
#endif
