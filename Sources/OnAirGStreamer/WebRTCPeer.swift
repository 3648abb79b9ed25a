#if os(Linux)
import CGStreamer
import CGStreamerWebRTC
import Foundation
import OnAirCore

/// One WebRTC peer connection on GStreamer's `webrtcbin`: a pipeline of its own (appsrcs named
/// `video`/`audio` → payloaders → `webrtcbin name=webrtc`), negotiated without trickle ICE — the
/// local description is returned once every candidate is gathered, as WHEP and WHIP want.
///
/// Making one blocks (negotiation, gathering: well under a second on loopback): call it from a
/// dedicated thread. `onKeyFrameRequest` runs on a GStreamer streaming thread.
package final class WebRTCPeer: Sendable {
    /// How the peer is built.
    package struct Options: Sendable {
        /// gst-launch description of the pipeline (see the type's description).
        package var launch: String
        /// The only address host candidates are gathered on (nil: every interface).
        package var localAddress: String?
        /// UDP ports the ICE agent may use (nil: any).
        package var ports: ClosedRange<Int>?
        /// "stun://host:port", or nil for none.
        package var stunServer: String?
        /// "turn(s)://user:password@host:port", or nil for none.
        package var turnServer: String?
        /// Seconds each negotiation step and candidate gathering may take.
        package var timeout: Double = 5

        /// Options for `launch` with no STUN or TURN server.
        package init(launch: String, localAddress: String? = nil, ports: ClosedRange<Int>? = nil) {
            self.launch = launch
            self.localAddress = localAddress
            self.ports = ports
        }
    }

    /// What the peer's RTP session has seen so far.
    package struct Figures: Sendable, Equatable {
        /// RTCP packets received from the remote peer.
        package var rtcpPackets: Int
        /// Seconds since the last one (nil: none yet).
        package var secondsSinceRTCP: Double?
        /// Feedback messages received.
        package var nacks: Int, plis: Int, firs: Int
        /// Round trip from the latest receiver report, in seconds (nil: no report yet).
        package var roundTripSeconds: Double?
        /// Packets the remote peer reports lost (nil: no report yet).
        package var packetsLost: Int?
        /// RTP bytes and packets sent.
        package var bytesSent: Int, packetsSent: Int
        /// Packets the remote peer's NACKs asked to have again, and RTX packets sent for them.
        package var retransmissionRequests: Int, retransmittedPackets: Int
        /// The ICE connection state (GStreamer's numbering: 2 connected, 3 completed, 4 failed, 5 disconnected, 6 closed).
        package var iceConnectionState: Int
        /// Whether DTLS is up (media sent now reaches the peer).
        package var dtlsConnected: Bool
    }

    /// The peer (nil once closed).
    private let handle: Locked<GStreamerPointer?>
    private let requests: KeyFrameCallbackBox
    /// The local SDP (the answer to a remote offer, or the offer this peer made).
    package let localDescription: String

    /// The certificate and private key (PEM) the DTLS of every peer in this process presents:
    /// ECDSA P-256, self-signed, made once (webrtcbin's default is RSA, which peers that offer only
    /// ECDSA cipher suites refuse). Throws when it could not be made.
    package static func certificate() throws(GStreamerError) -> String {
        var error = [CChar](repeating: 0, count: 256)
        guard let pem = onair_webrtc_certificate(&error, error.count) else {
            throw .webRTC(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return String(cString: pem)
    }

    /// Builds the pipeline and answers `remoteOffer` (nil: makes an offer, for WHIP).
    package init(options: Options, remoteOffer: String?, onKeyFrameRequest: @escaping @Sendable () -> Void) throws(GStreamerError) {
        try GStreamerLibrary.start()
        requests = KeyFrameCallbackBox(onKeyFrameRequest)
        let context = Unmanaged.passUnretained(requests).toOpaque()
        var callbacks = onair_webrtc_callbacks()
        callbacks.context = context
        callbacks.keyframe_requested = { context in
            guard let context else { return }
            Unmanaged<KeyFrameCallbackBox>.fromOpaque(context).takeUnretainedValue().call()
        }
        var error = [CChar](repeating: 0, count: 512)
        var local: UnsafeMutablePointer<CChar>?
        let made: OpaquePointer? = options.launch.withCString { launch in
            Self.withOptionalCString(remoteOffer) { offer in
                Self.withOptionalCString(options.localAddress) { address in
                    Self.withOptionalCString(options.stunServer) { stun in
                        Self.withOptionalCString(options.turnServer) { turn in
                            var raw = onair_webrtc_options(
                                launch: launch, remote_offer: offer, local_address: address,
                                minimum_port: Int32(options.ports?.lowerBound ?? 0),
                                maximum_port: Int32(options.ports?.upperBound ?? 0),
                                stun_server: stun, turn_server: turn, timeout: options.timeout)
                            return onair_webrtc_peer_new(&raw, callbacks, &local, &error, error.count)
                        }
                    }
                }
            }
        }
        guard let made, let local else {
            throw .webRTC(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        handle = Locked(GStreamerPointer(made))
        localDescription = String(cString: local)
        onair_webrtc_free_text(local)
    }

    /// Applies the remote answer to the offer this peer made.
    package func setRemoteAnswer(_ answer: String) throws(GStreamerError) {
        guard let peer else { throw .webRTC("the peer is closed") }
        var error = [CChar](repeating: 0, count: 512)
        if onair_webrtc_peer_set_remote_answer(peer.opaque, answer, 5, &error, error.count) != 0 {
            throw .webRTC(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    /// The appsrc named `name` ("video", "audio") of the pipeline, if it has one.
    package func source(named name: String) -> GStreamerAppSource? {
        guard let peer, let element = onair_webrtc_peer_source(peer.opaque, name) else { return nil }
        return GStreamerAppSource(taking: element)
    }

    /// The counters now.
    package var figures: Figures {
        var raw = onair_webrtc_figures()
        if let peer { onair_webrtc_peer_figures(peer.opaque, &raw) }
        let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        // g_get_monotonic_time is CLOCK_MONOTONIC, as DispatchTime's uptime is on Linux.
        let since = raw.last_rtcp_microseconds > 0 ? max(0, now - Double(raw.last_rtcp_microseconds) / 1e6) : nil
        return Figures(
            rtcpPackets: Int(raw.rtcp_packets), secondsSinceRTCP: since, nacks: Int(raw.nacks),
            plis: Int(raw.plis), firs: Int(raw.firs),
            roundTripSeconds: raw.round_trip_seconds >= 0 ? raw.round_trip_seconds : nil,
            packetsLost: raw.packets_lost >= 0 ? Int(raw.packets_lost) : nil,
            bytesSent: Int(raw.bytes_sent), packetsSent: Int(raw.packets_sent),
            retransmissionRequests: Int(raw.retransmission_requests), retransmittedPackets: Int(raw.retransmitted_packets),
            iceConnectionState: Int(raw.ice_connection_state), dtlsConnected: raw.dtls_connected != 0)
    }

    /// The pipeline's error, if it posted one.
    package var failure: String? {
        guard let peer else { return nil }
        var message = [CChar](repeating: 0, count: 512)
        guard onair_webrtc_peer_failure(peer.opaque, &message, message.count) != 0 else { return nil }
        return String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Stops the pipeline (idempotent); no callback runs after it returns.
    package func close() {
        let taken = handle.withLock { handle in
            defer { handle = nil }
            return handle
        }
        guard let taken else { return }
        onair_webrtc_peer_free(taken.opaque)
    }

    /// The peer, nil once closed.
    private var peer: GStreamerPointer? { handle.withLock { $0 } }

    deinit { close() }

    private static func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let text else { return body(nil) }
        return text.withCString(body)
    }
}

/// The owner's keyframe callback, held for the C side.
private final class KeyFrameCallbackBox: Sendable {
    let call: @Sendable () -> Void
    init(_ call: @escaping @Sendable () -> Void) { self.call = call }
}
#endif
