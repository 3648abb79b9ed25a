#if os(Linux)
import CGStreamer
import Foundation
import OnAirCore

/// An RTSP server on gst-rtsp-server serving one path (or a few), with a pipeline of its own for every
/// client (the media is not shared), so the owner feeds each client from that client's queue.
///
/// Listens as soon as it is made; answers on its own GLib loop thread. `stop()` closes every
/// client. Every request is first put to the owner's `RTSPServerConfiguration.requestRules`. Its connections are held to limits gst-rtsp-server does not set (`RTSPServerGuard`);
/// with credentials, `RTSPServerKeys` hands them to `RTSPServerConfiguration.keys`.
/// The small records the C callbacks point to are kept for the life of the process:
/// gst-rtsp-server's client threads may still report a closing client after the server stops.
package final class RTSPServer: Sendable {
    /// The TCP port listened on.
    package let port: Int
    private let loop: GStreamerMainLoop
    private let server: GStreamerPointer
    private let events: RTSPServerEvents
    private let guardian: RTSPServerGuard
    private let keys: RTSPServerKeys?
    private let stopped = Locked(false)

    /// Starts GStreamer if needed, listens and starts answering; events go to `delegate`.
    package init(configuration: RTSPServerConfiguration, delegate: any RTSPServerDelegate) throws(GStreamerError) {
        try GStreamerLibrary.start()
        let loop = try GStreamerMainLoop()
        self.loop = loop
        let events = RTSPServerEvents(delegate: delegate, rules: configuration.requestRules)
        self.events = events
        let guardian = RTSPServerGuard(policy: configuration.connectionPolicy ?? RTSPServerGuard.Unguarded())
        self.guardian = guardian
        let guardCallbacks = guardian.callbacks()
        let keys = configuration.keys.map(RTSPServerKeys.init(policy:))
        self.keys = keys
        let keyCallbacks = keys?.callbacks() ?? onair_rtsp_keys_callbacks()
        var message = [CChar](repeating: 0, count: 256)
        let callbacks = onair_rtsp_callbacks(
            context: Unmanaged.passRetained(events).toOpaque(),
            check_request: { context, request in
                RTSPServerEvents.from(context).check(request)
            },
            admit: { context, client, peer in
                RTSPServerEvents.from(context).admit(client: client, peer: peer)
            },
            media_configured: { context, media, video, audio, client, peer, path in
                RTSPServerEvents.from(context).configured(
                    media: media, video: video, audio: audio, client: client, peer: peer, path: path)
            },
            play: { context, media, key in
                RTSPServerEvents.from(context).play(media: media, key: Int(key))
            },
            media_transport: { context, media, transport in
                RTSPServerEvents.from(context).transport(media: media, name: transport)
            },
            media_ended: { context, media in
                RTSPServerEvents.from(context).ended(media: media)
            },
            client_closed: { context, client in
                RTSPServerEvents.from(context).closed(client: client)
            })
        let made: OpaquePointer? = configuration.host.withCString { host in
            ([configuration.path] + configuration.otherPaths).joined(separator: " ").withCString { path in
                configuration.launchLines.withCString { launch in
                    var options = onair_rtsp_options(
                        address: host, port: Int32(configuration.port), path: path, launch: launch, keys: keyCallbacks,
                        allow_basic: configuration.keys?.allowsBasic == true ? 1 : 0, session_timeout: Int32(configuration.sessionTimeout),
                        content_length_limit: UInt32(configuration.contentLengthLimit), guard: guardCallbacks, tls_pem: nil)
                    guard let pem = configuration.tlsPEM else {
                        return onair_rtsp_server_new(loop.loop, &options, callbacks, &message, message.count)
                    }
                    return pem.withCString { pem in
                        options.tls_pem = pem
                        return onair_rtsp_server_new(loop.loop, &options, callbacks, &message, message.count)
                    }
                }
            }
        }
        guard let made else {
            throw .server(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        server = GStreamerPointer(made)
        port = Int(onair_rtsp_server_port(made))
        guardian.start(server: made)
        loop.start(named: "onair.gstreamer.rtsp")
    }

    /// Replaces the passwords the configured user may give (a token rotation): each known by its
    /// number (> 0), which `RTSPServerDelegate.rtspServer(play:key:)` is told. Clients already
    /// playing are not touched. False when the server asks for no credentials.
    @discardableResult
    package func setKeys(_ keys: [(password: String, number: Int)]) -> Bool {
        stopped.withLock { stopped in
            guard !stopped, let policy = self.keys?.policy else { return false }
            policy.setKeys(keys)
            return true
        }
    }

    /// Puts a new certificate and key (PEM, one after the other) in force for the connections that
    /// come from now on; those open keep theirs (an RTSPS server only).
    package func setTLS(_ pem: String) throws(GStreamerError) {
        let refusal: String? = stopped.withLock { stopped in
            guard !stopped else { return nil }
            var message = [CChar](repeating: 0, count: 256)
            guard onair_rtsp_server_set_tls(server.opaque, pem, &message, message.count) == 0 else {
                return String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            return nil
        }
        if let refusal { throw .server(refusal) }
    }

    /// Closes every client, stops listening and stops the loop.
    package func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        guardian.stop()
        onair_rtsp_server_close(server.opaque)
        events.detach()
        loop.stop()
    }

    deinit {
        stop()
    }
}
#endif
