#if os(Linux)
#if canImport(OnAirGStreamer) && canImport(OnAirHTTP)
import Foundation
import OnAirCore
import OnAirGStreamer
import OnAirLive

/// One publishing session at a WHIP endpoint: a `WebRTCPeer` (webrtcbin, sendonly H.264 and
/// Opus, bundled, host candidates only) whose offer was posted and answered, and the session
/// resource (`Location`) to DELETE when it ends.
///
/// Made on the sink's connector thread (`open` blocks: HTTP, negotiation, DTLS). Packets are pushed
/// from the sink's writing thread and the Opus thread; both streams share one offset from media time
/// to the pipeline's running time, so RTP timestamps and sender reports keep the capture's A/V
/// alignment.
final class WHIPConnection: Sendable {
    /// The session resource's path on the endpoint's server (nil: the server gave none usable).
    let resource: String?
    private let peer: WebRTCPeer
    private let client: WHIPHTTPClient
    private let video: GStreamerAppSource?
    private let audio: GStreamerAppSource?
    /// Also held while the peer is read or closed, so no figures are read from a closing peer.
    private let state = Locked<(offset: Int64?, videoStart: MediaTime?, closed: Bool, gauge: WHIPLinkGauge)>(
        (nil, nil, false, WHIPLinkGauge()))
    /// When DTLS came up (the connection's start for the silence check).
    let connectedAt: Double

    /// Payload types the offer uses.
    static let videoPayloadType = 96, audioPayloadType = 111

    /// Makes the peer, posts its offer, applies the answer and waits up to the client's timeout
    /// for DTLS. `keyFrameWanted` runs on a GStreamer thread for each PLI/FIR.
    init(
        client: WHIPHTTPClient, streams: Set<MediaType>, localAddress: String?, stunServer: String?,
        keyFrameWanted: @escaping @Sendable () -> Void
    ) throws(WHIPError) {
        let name = client.endpoint.name
        var options = WebRTCPeer.Options(launch: Self.launchDescription(streams: streams), localAddress: localAddress)
        options.stunServer = stunServer
        options.timeout = client.timeout
        let peer: WebRTCPeer
        do { peer = try WebRTCPeer(options: options, remoteOffer: nil, onKeyFrameRequest: keyFrameWanted) } catch {
            throw .peerFailed(destination: name, reason: "\(error)")
        }
        let response: WHIPHTTPClient.Response
        do {
            response = try client.exchange(
                "POST", path: client.endpoint.path, body: Array(peer.localDescription.utf8), contentType: "application/sdp")
        } catch {
            peer.close()
            throw error
        }
        guard response.head.status == 201 || response.head.status == 200 else {
            peer.close()
            let detail = String(decoding: response.body.prefix(200), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\r\n", with: " ")
            throw .refused(destination: name, status: response.head.status, reason: response.head.reason, detail: detail)
        }
        let answer = String(decoding: response.body, as: UTF8.self)
        guard answer.hasPrefix("v=0") else {
            peer.close()
            throw .badAnswer(destination: name, reason: "the \(response.head.status) answer carries no SDP")
        }
        let resource = response.head.value("Location").flatMap { client.endpoint.resourcePath(location: $0) }
        do { try peer.setRemoteAnswer(answer) } catch {
            Self.delete(resource, client: client)
            peer.close()
            throw .peerFailed(destination: name, reason: "the answer was not accepted: \(error)")
        }
        let deadline = ProcessInfo.processInfo.systemUptime + client.timeout
        while !peer.figures.dtlsConnected {
            let figures = peer.figures
            let failure = peer.failure ?? (figures.iceConnectionState == 4 ? "ICE failed" : nil)
            if failure != nil || ProcessInfo.processInfo.systemUptime > deadline {
                Self.delete(resource, client: client)
                peer.close()
                throw .peerFailed(destination: name, reason: failure ?? "ICE and DTLS not connected within \(client.timeout) s")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        self.resource = resource
        self.peer = peer
        self.client = client
        video = peer.source(named: "video")
        audio = peer.source(named: "audio")
        connectedAt = ProcessInfo.processInfo.systemUptime
    }

    /// Sends one packet's `payload` (H.264 in Annex-B, or Opus); audio waits for the first video packet
    /// when there is video, so both start from that keyframe's time.
    func push(_ packet: EncodedPacket, payload: MediaBuffer, hasVideo: Bool) {
        guard let source = packet.mediaType == .video ? video : audio else { return }
        let pts = packet.pts.nanoseconds
        let shift: Int64? = state.withLock { state in
            if state.closed || (hasVideo && packet.mediaType == .audio && (state.videoStart.map { packet.pts < $0 } ?? true)) {
                return nil
            }
            if packet.mediaType == .video && state.videoStart == nil { state.videoStart = packet.pts }
            if state.offset == nil { state.offset = (source.runningTime ?? 0) - pts }
            return state.offset ?? 0
        }
        guard let shift else { return }
        _ = payload.withUnsafeBytes { bytes in
            source.push(
                bytes, pts: pts + shift, dts: packet.dts.nanoseconds + shift, duration: packet.duration.nanoseconds,
                isKeyframe: packet.isKeyframe)
        }
    }

    /// Why the connection is gone (pipeline error, ICE failed or closed, no RTCP for `silence`
    /// seconds), or nil while it is up.
    func lostReason(silence: Double) -> String? {
        state.withLock { state in
            guard !state.closed else { return "closed" }
            if let failure = peer.failure { return failure }
            let figures = peer.figures
            if figures.iceConnectionState == 4 { return "ICE failed" }
            if figures.iceConnectionState == 6 { return "ICE closed" }
            let quiet = figures.secondsSinceRTCP ?? (ProcessInfo.processInfo.systemUptime - connectedAt)
            if quiet > silence { return String(format: "no RTCP from the server for %.1f s", quiet) }
            return nil
        }
    }

    /// The receiver reports' figures as a transport measurement (nil once closed).
    func measure() -> TransportMeasurement? {
        state.withLock { state in
            guard !state.closed else { return nil }
            let figures = peer.figures
            let queued = (video?.queuedBytes ?? 0) + (audio?.queuedBytes ?? 0)
            return state.gauge.measure(
                at: ProcessInfo.processInfo.systemUptime, bytesSent: figures.bytesSent, packetsSent: figures.packetsSent,
                packetsLost: figures.packetsLost, roundTrip: figures.roundTripSeconds, queuedBytes: queued)
        }
    }

    /// Ends the session: DELETEs the resource (`delete`; a failure is returned, not thrown) and stops the pipeline.
    @discardableResult
    func close(delete: Bool) -> WHIPError? {
        let wasClosed = state.withLock { state in
            defer { state.closed = true }
            return state.closed
        }
        guard !wasClosed else { return nil }
        video?.end()
        audio?.end()
        let failure = delete ? Self.delete(resource, client: client) : nil
        state.withLock { _ in peer.close() }
        return failure
    }

    /// DELETEs `resource`; the error when the server refuses or cannot be reached.
    @discardableResult
    private static func delete(_ resource: String?, client: WHIPHTTPClient) -> WHIPError? {
        guard let resource else { return nil }
        do {
            let response = try client.exchange("DELETE", path: resource)
            guard (200..<300).contains(response.head.status) || response.head.status == 404 else {
                return .refused(
                    destination: client.endpoint.name, status: response.head.status, reason: response.head.reason,
                    detail: "DELETE \(resource)")
            }
            return nil
        } catch {
            return error
        }
    }

    /// The publisher's pipeline: H.264 (Constrained Baseline, packetization mode 1) and Opus into one bundled webrtcbin.
    static func launchDescription(streams: Set<MediaType>) -> String {
        var parts = ["webrtcbin name=webrtc bundle-policy=max-bundle latency=0"]
        if streams.contains(.video) {
            parts.append(
                "appsrc name=video is-live=true format=time max-bytes=0 caps=video/x-h264,stream-format=byte-stream,alignment=au"
                    + " ! h264parse config-interval=-1 ! rtph264pay pt=\(videoPayloadType) config-interval=-1 aggregate-mode=zero-latency mtu=1200"
                    + " ! application/x-rtp,media=video,encoding-name=H264,payload=\(videoPayloadType),clock-rate=90000,"
                    + "packetization-mode=(string)1 ! webrtc.")
        }
        if streams.contains(.audio) {
            parts.append(
                "appsrc name=audio is-live=true format=time max-bytes=0 caps=audio/x-opus,channel-mapping-family=0,channels=2,rate=48000"
                    + " ! rtpopuspay pt=\(audioPayloadType) mtu=1200"
                    + " ! application/x-rtp,media=audio,encoding-name=OPUS,payload=\(audioPayloadType),clock-rate=48000,encoding-params=(string)2 ! webrtc."
            )
        }
        return parts.joined(separator: " ")
    }
}
#endif
#endif
