import Foundation
import OnAirCore
import OnAirLive

#if canImport(OnAirStreaming)
import OnAirStreaming
#endif

#if canImport(OnAirServing)
import OnAirServing
#endif

/// Builds a `Session` from `SessionSettings`: opens the sources (by spec, or the app's own),
/// the encoders (before any file exists, so rejected settings leave nothing behind), every
/// output through `OutputRegistry` and, when serving, the server; it owns the recipe — which
/// streams each output takes, keyframe spacing for HLS and serving, TCP send-buffer sizing,
/// adaptive-bitrate defaults, failure reporting.
///
/// ```swift
/// var settings = SessionSettings()
/// settings.video = .v4l2(device: "/dev/video0")
/// settings.audio = .pulse(source: "default")
/// settings.outputs = ["clip.mp4"]
/// settings.duration = .seconds(5)
/// let outcome = try await SessionBuilder(settings).build().run()
/// ```
public struct SessionBuilder: Sendable {
    /// The settings the session is built from.
    public var settings: SessionSettings
    private var sources: [any CaptureSource]?
    private var handler: (@Sendable (SessionEvent) -> Void)?

    /// A builder for `settings`.
    public init(_ settings: SessionSettings = SessionSettings()) {
        self.settings = settings
    }

    /// Uses the app's own sources instead of `settings.video`/`settings.audio`; the session
    /// encodes video when one of them delivers video, audio when one delivers audio.
    public func sources(_ sources: [AppSource]) -> SessionBuilder {
        var copy = self
        copy.sources = sources
        return copy
    }

    /// Calls `handler` with every event, on the thread it happened on (keep it short).
    public func onEvent(_ handler: @escaping @Sendable (SessionEvent) -> Void) -> SessionBuilder {
        var copy = self
        copy.handler = handler
        return copy
    }

    /// Opens everything (encoders, devices, files, servers) on a thread of its own, off the
    /// cooperative pool, and returns the session, not yet started.
    public func build() async throws -> Session {
        let builder = self
        return try await OffPool.run("onair.session.open") { try builder.open() }
    }

    private func open() throws -> Session {
        var settings = self.settings
        let customSources = self.sources
        if customSources == nil { try settings.validate() } else { try validateForCustomSources(settings) }
        settings.videoEncoder = settings.effectiveVideoEncoder
        let fanOut = SessionEventFanOut(handler: handler)
        // The session's anchored time line: recording starts and ages, the health's clock check.
        let clock = settings.clock ?? AnchoredClock()
        clock.observeSteps { fanOut.send(.clockStepped(by: $0)) }
        let sources = try customSources ?? Self.makeSources(settings)
        let kinds = Set(sources.flatMap(\.mediaTypes))
        let video = kinds.contains(.video) ? settings.videoEncoder : nil
        let audio = kinds.contains(.audio) ? settings.audioEncoder : nil
        var streams = Set<MediaType>()
        if video != nil { streams.insert(.video) }
        if audio != nil { streams.insert(.audio) }

        var configuration = LiveSession.Configuration(video: video, audio: audio)
        configuration.duration = settings.duration?.inSeconds
        configuration.timelineStart = settings.timelineStart.inSeconds
        configuration.dropLateVideo = !settings.asFastAsPossible
        configuration.maximumNetworkBacklog = settings.streaming.maximumBacklog?.inSeconds
        #if canImport(OnAirServing)
        // Served streams (`/live.mp4`, HLS, RTSP, WebRTC) start at a keyframe once the sound has begun.
        configuration.keyFrameWhenSoundStarts = settings.serving != nil
        #endif
        let outputKinds = try settings.outputs.map { try OutputRegistry.kind(for: $0) }
        let hasNetwork = outputKinds.contains { $0.role == .network }
        if hasNetwork, settings.streaming.adaptiveBitRate, let video {
            configuration.adaptiveBitRate = settings.streaming.adaptiveSettings(video: video, audio: audio)
        }
        // Encoders open (and settings are checked) before any output file is created.
        let encoders = try EncoderFactory.encoders(video: configuration.openingVideo, audio: audio)
        // The further encodes of the same capture (only with video), each with an encoder of its own.
        let renditions = video.map { main in settings.renditions.map { ($0, $0.encoderSettings(main: main)) } } ?? []
        let renditionEncoders = try renditions.map { try EncoderFactory.videoEncoder(settings: $0.1) }
        var renditionSinks: [String: [any PacketSink]] = [:]
        // Bounded whether or not the bitrate adapts: a backlog hidden in the kernel's buffer would
        // escape both adaptive bitrate and the backlog bound.
        #if canImport(OnAirStreaming)
        let sendBuffer = configuration.openingVideo.map {
            NetworkSink.sendBufferBytes(streamBitRate: $0.averageBitRate + (audio?.bitRate ?? 0))
        }
        #else
        let sendBuffer: Int? = nil
        #endif
        var fileSinks: [any PacketSink] = []
        var networkSinks: [any PacketSink] = []
        var waiting: [String] = []
        var made: [String] = []
        do {
            for (output, kind) in zip(settings.outputs, outputKinds) {
                #if canImport(OnAirStreaming)
                let destination = (try? StreamTarget(parsing: output).displayName) ?? output
                #else
                let destination = output
                #endif
                let context = OutputContext(
                    name: output, streams: streams.intersection(kind.streams), options: settings.fileOptions,
                    streaming: settings.streaming, sendBufferBytes: sendBuffer,
                    connectionEvents: { event in fanOut.send(.connection(destination: destination, event: event)) })
                let sink = try kind.makeSink(context)
                if kind.role == .network {
                    networkSinks.append(sink)
                    #if canImport(OnAirStreaming)
                    if let network = sink as? NetworkSink, network.target.isListener {
                        // An SRT listener binds now, so the line names its port (the kernel's, for port 0); a
                        // failure here is left to the connector, which retries and says why.
                        waiting.append((try? network.listeningName()) ?? network.target.displayName)
                    }
                    #endif
                } else {
                    fileSinks.append(sink)
                    made.append(output)
                }
            }
            for (rendition, _) in renditions {
                for output in rendition.outputs {
                    let kind = try OutputRegistry.kind(for: output)
                    let context = OutputContext(
                        name: output, streams: streams.intersection(kind.streams), options: settings.fileOptions,
                        streaming: settings.streaming, sendBufferBytes: nil, connectionEvents: { _ in })
                    renditionSinks[rendition.name, default: []].append(try kind.makeSink(context))
                    made.append(output)
                }
            }
            if let recording = settings.recording {
                fileSinks.append(
                    try OutputRegistry.segmentedRecorder(recording, streams: streams, clock: clock) { fanOut.send(.notice($0)) })
            }
        } catch {
            for output in made { try? FileManager.default.removeItem(atPath: output) }
            throw error
        }

        var audioEncoder = encoders.audio
        #if canImport(OnAirGStreamer) && canImport(OnAirFFmpeg) && canImport(OnAirHTTP)
        // WHIP outputs send Opus, encoded from the same capture beside the AAC.
        for case let whip as WHIPSink in networkSinks { audioEncoder = audioEncoder.map { whip.audioTap(wrapping: $0) } }
        #endif
        /// Hooks that need the finished session (statistics for the server, keyframe requests).
        var connect: [(Session, LiveSession) -> Void] = []
        if let recorder = fileSinks.lazy.compactMap({ $0 as? any RecordingFiguresSink }).first {
            connect.append { session, _ in session.recordingReload = { recorder.reload($0) } }
        }
        var teardowns: [@Sendable () -> Void] = []
        var endpoints: ServedEndpoints?
        var viewerTotals: (@Sendable () -> ViewerTotals)?
        var hlsURL: String?
        var outputFailed: @Sendable (OutputFailure) -> Void = { _ in }
        var servedMotion: (@Sendable (Bool, Date) -> Void)?
        #if canImport(OnAirServing)
        if let serving = settings.serving {
            var configured = serving.server
            configured.timelineStart = settings.timelineStart.inSeconds
            let serve = try ServeOutputs(
                configuration: configured, streams: streams,
                streamBitRate: (video?.averageBitRate ?? 0) + (audio?.bitRate ?? 0),
                hlsSegmentDuration: serving.hlsSegmentDuration.inSeconds, hlsVariant: serving.hlsVariant,
                hlsPartDuration: serving.hlsPartDuration.inSeconds, programDate: { clock.now() },
                explicitQueueBytes: serving.viewerQueueBytes,
                profile: video?.profileLevel.profile ?? .baseline, renditions: renditions.map(\.0.name),
                codecs: Dictionary(
                    [(ServeHub.main, video?.codec ?? .h264)] + renditions.map { ($0.0.name, $0.1.codec) }, uniquingKeysWith: { $1 }))
            teardowns.append { serve.stop() }
            serve.health.watch(clock: clock)
            outputFailed = { serve.health.outputFailed($0.destination, reason: "\($0.error)") }
            fileSinks += serve.sinks
            for (name, sinks) in serve.renditionSinks { renditionSinks[name, default: []] += sinks }
            serve.hub.setViewerObserver { event in fanOut.send(.viewer(event)) }
            let server = serving.server
            endpoints = ServedEndpoints(
                baseURL: server.baseURL(port: serve.server.port), query: server.token.map { "?token=\($0)" } ?? "",
                srtPort: serve.srt?.port, rtspPort: serve.rtsp.flatMap { $0.port == 0 ? nil : $0.port },
                rtspUser: ServeRTSPFace.user,
                // An H.265 main encode has no face: /whep is then answered by an H.264 sub stream's.
                whepURL: serve.webRTC == nil && serve.renditionFaces.isEmpty ? nil : server.baseURL(port: serve.server.port) + "/whep",
                host: server.host,
                isLoopback: server.isLoopback, hasToken: server.token != nil)
            endpoints?.tlsFingerprint = serve.server.tls?.fingerprint
            endpoints?.tlsCertificateMade = serve.server.tls?.madeCertificate
            endpoints?.redirectPort = serve.server.redirectPort
            endpoints?.rtspsPort = serve.rtsp?.tlsPort
            endpoints?.renditions = renditions.map(\.0.name)
            if let rtsp = serve.rtsp, let plain = ServeRTSPFace.plainHost(server, tls: server.tls != nil), plain != server.host,
                rtsp.port != 0
            {
                endpoints?.rtspHost = plain
            }
            if serve.server.tls != nil { endpoints?.reloadCertificate = { try serve.reloadCertificate() } }
            viewerTotals = {
                var totals = serve.hub.statistics().totals
                // WebRTC viewers live in their faces: their cuts at a token's removal count too.
                let faces = [serve.webRTC].compactMap { $0 } + serve.renditionFaces.values
                totals.cutCredentialWithdrawn += faces.map(\.cutCredentialWithdrawn).reduce(0, +)
                return totals
            }
            if streams.contains(.video) {
                let snapshot = ServeSnapshot()
                fileSinks.append(snapshot)
                serve.server.setSnapshot(snapshot)
                for (rendition, _) in renditions {
                    let sub = ServeSnapshot()
                    renditionSinks[rendition.name, default: []].append(sub)
                    serve.server.setSnapshot(sub, rendition: rendition.name)
                }
            }
            if settings.motion != nil, video != nil {
                serve.motion.enable()
                servedMotion = { [motion = serve.motion] in motion.changed(isMotion: $0, at: $1) }
            }
            for notice in serve.serveONVIF(video: video, audio: audio, renditions: renditions.map { ($0.0.name, $0.1) }) {
                fanOut.send(.notice(notice))
            }
            if let recording = settings.recording {
                let playback = RecordingPlayback(recording: recording)
                serve.server.setPlayback(playback)
                teardowns.append { playback.stop() }
            }
            // WebRTC viewers get Opus from the same capture, encoded once beside the AAC.
            audioEncoder = audioEncoder.map { serve.webRTC?.audioTap(wrapping: $0) ?? $0 }
            for face in serve.renditionFaces.values { audioEncoder = audioEncoder.map { face.audioTap(wrapping: $0) } }
            connect.append { session, live in
                serve.server.setEncoderStatistics { [weak session] in session?.latestStatistics }
                serve.notifySystemd { [weak session] in session?.latestStatistics }
                session.servingLimits = { serve.hub.setLimits(maxViewers: $0, viewerTimeout: $1) }
                session.servingCredentials = {
                    Session.TokenReload(
                        cut: serve.setCredentials(tokens: $0, users: $1),
                        lockedFaces: serve.lockedFaces.map { Session.LockedFace(face: $0.face, until: $0.until) })
                }
                serve.webRTC?.setKeyFrameRequester { [weak live] in live?.forceKeyFrame() }
                for (name, face) in serve.renditionFaces {
                    face.setKeyFrameRequester { [weak live] in live?.forceKeyFrame(rendition: name) }
                }
            }
        }
        #endif
        #if canImport(OnAirHTTP) && canImport(OnAirFFmpeg)
        if let port = settings.hlsServePort, let playlist = settings.outputs.lazy.compactMap(OutputRegistry.hlsPlaylist(for:)).first {
            let directory = (playlist as NSString).deletingLastPathComponent
            let served = directory.isEmpty ? "." : directory
            try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
            let server = try HLSFileServer(directory: served, port: port)
            teardowns.append { server.stop() }
            hlsURL = "http://127.0.0.1:\(server.port)/\((playlist as NSString).lastPathComponent)"
        }
        #endif
        let torn = Once()
        let teardown: @Sendable () -> Void = { [teardowns] in torn.run { for step in teardowns { step() } } }
        let live: LiveSession
        do {
            live = try LiveSession(
                configuration: configuration, sources: sources, sinks: fileSinks, networkSinks: networkSinks,
                videoEncoder: encoders.video, audioEncoder: audioEncoder,
                bitRateDecisions: { fanOut.send(.bitRateChanged($0)) },
                outputFailed: { [outputFailed] in
                    outputFailed($0)
                    fanOut.send(.outputFailed($0))
                },
                notices: { fanOut.send(.notice($0)) })
        } catch {
            teardown()
            throw error
        }
        if let motion = settings.motion, video != nil {
            live.observeVideo(Self.motionWatch(motion, fanOut: fanOut, serving: servedMotion).observe)
        }
        for ((rendition, _), encoder) in zip(renditions, renditionEncoders) {
            live.addRendition(name: rendition.name, encoder: encoder, sinks: renditionSinks[rendition.name] ?? [])
        }
        let session = Session(
            settings: settings, live: live, fileOutputs: made, fanOut: fanOut,
            servedEndpoints: endpoints, hlsServerURL: hlsURL, waitingForReceivers: waiting,
            viewerTotals: viewerTotals, teardown: teardown)
        for hook in connect { hook(session, live) }
        if customSources == nil { session.sourceMaker = { try SessionBuilder.makeSources($0) } }
        return session
    }

    /// The motion detector of `settings` on the capture: each change becomes a `.motion` event,
    /// a run of the `--on-motion` command (queued, never waited for) and, when serving, a count
    /// on `/metrics` and an ONVIF event (`serving`, with the wall-clock time).
    private static func motionWatch(
        _ settings: MotionSettings, fanOut: SessionEventFanOut, serving: (@Sendable (Bool, Date) -> Void)?
    ) -> MotionWatch {
        let hook = settings.onMotion.map { MotionHook(command: $0) { fanOut.send(.notice($0)) } }
        return MotionWatch(
            settings: settings.detector,
            changed: { isMotion, time in
                fanOut.send(.motion(isMotion: isMotion, at: .milliseconds(Int64((time * 1000).rounded()))))
                hook?.run(isMotion: isMotion, at: time)
                serving?(isMotion, Date())
            }, notice: { fanOut.send(.notice($0)) })
    }

    private func validateForCustomSources(_ settings: SessionSettings) throws {
        guard let sources, !sources.isEmpty else {
            throw SettingsError(field: "sources", value: "[]", allowed: "at least one source")
        }
        var check = settings
        check.video = .synthetic
        check.audio = .synthetic
        check.asFastAsPossible = false
        try check.validate()
    }

    /// The sources `settings.video` and `settings.audio` name, opened at the encoder's size and rate.
    static func makeSources(_ settings: SessionSettings) throws -> [any CaptureSource] {
        let encoding = (video: settings.videoEncoder, audio: settings.audioEncoder)
        return try SourceSpec.makeSource(
            video: settings.video, audio: settings.audio,
            size: (encoding.video.width, encoding.video.height), frameRate: encoding.video.expectedFrameRate,
            sampleRate: encoding.audio.sampleRate, channels: encoding.audio.channels,
            synthetic: { kinds in
                try SyntheticSource(
                    video: kinds.contains(.video) ? (encoding.video.width, encoding.video.height, encoding.video.expectedFrameRate) : nil,
                    audio: kinds.contains(.audio) ? (encoding.audio.sampleRate, encoding.audio.channels) : nil,
                    fast: settings.asFastAsPossible, duration: settings.duration?.inSeconds,
                    audioClockOffsetPPM: settings.syntheticAudioClockOffsetPPM)
            })
    }
}
