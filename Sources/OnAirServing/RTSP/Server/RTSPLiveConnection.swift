#if os(Linux)
import Foundation
import Glibc
import OnAirCore

/// One client connection of an `RTSPLiveServer`: its requests, its session and, while it plays,
/// the sending of its viewer queue. Thread rule: everything here runs on the server's loop
/// thread (the box only makes that provable; it is never contended but by the hub's wake, which
/// only hands work to the loop).
final class RTSPLiveConnection: Sendable {
    let fd: Int32
    let peer: SocketAddress
    /// The connection's bytes: plain (RTSP) or inside TLS (RTSPS).
    private let stream: any ByteStream
    private unowned let server: RTSPLiveServer
    private let state: Locked<State>

    struct State {
        var reader: RTSPMessageReader
        var output: [UInt8] = []
        var outputStart = 0
        var session: RTSPLiveSession?
        /// When the client last showed it is there: a request, or RTCP of a session it plays.
        var lastActivity: Double
        /// Since when a request is awaited: the connection's opening until its first request
        /// (the TLS handshake and anything that is not a request do not stop that clock), then
        /// the first bytes of a request still incomplete.
        var requestSince: Double?
        /// The requests read whole.
        var requests = 0
        var closed = false
        /// Whether the TLS handshake is over (at once for plain RTSP).
        var ready = false
        /// What the socket is waited for (when ready).
        var interest: SocketEventLoop.Events = .readable
        /// Whether reading is held back until the output drains (answers nobody reads).
        var readPaused = false
        var pumpQueued = false
        /// Interleaved bytes the client sent in the current second, and when that second began.
        var interleaved: (bytes: Int, since: Double) = (0, 0)

        var pending: Int { output.count - outputStart }
    }

    /// The most interleaved bytes a client may send in a second (its RTCP is a few hundred).
    static let interleavedPerSecond = 1 << 20

    init(server: RTSPLiveServer, stream: any ByteStream, peer: SocketAddress) {
        self.server = server
        self.stream = stream
        fd = stream.fd
        self.peer = peer
        let rules = RTSPRequestRules(paths: Array(server.settings.paths.keys), headerLimit: 16 * 1024)
        let now = server.loop.now()
        state = Locked(State(reader: RTSPMessageReader(rules: rules), lastActivity: now, requestSince: now))
    }

    /// Bytes this connection holds: unwritten output and unread input (tests check the bounds).
    var heldBytes: Int {
        state.withLock { $0.pending + $0.reader.buffered }
    }

    /// Output past which requests are no longer read until it drains below `outputLimit`: a
    /// client that sends requests and reads none of the answers holds this much, not all of them.
    private var readPauseLimit: Int { 2 * server.settings.outputLimit }

    /// Waits on the socket for what `state` wants: readable unless reading is paused, writable
    /// while output waits.
    private func updateInterest(_ state: inout State) {
        var wanted: SocketEventLoop.Events = state.readPaused ? [] : .readable
        if state.pending > 0 { wanted.insert(.writable) }
        guard wanted != state.interest else { return }
        state.interest = wanted
        server.loop.change(fd, to: wanted)
    }

    // MARK: - Socket events

    func handle(_ events: SocketEventLoop.Events) {
        guard state.withLock({ $0.ready }) else { return shakeHands() }
        if events.contains(.writable) { flush() }
        guard !events.isDisjoint(with: [.readable, .closed]) else { return }
        if !events.isDisjoint(with: .closed), state.withLock({ $0.readPaused }) {
            // Not reading, so the end would be reported again and again: a client that hung up
            // (or closed its side) with answers unread is done.
            return close(reason: "closed with \(state.withLock { $0.pending }) bytes of answers unread")
        }
        receive()
    }

    /// One step of the TLS handshake (done at once for plain RTSP), waiting for what it wants.
    func shakeHands() {
        switch stream.handshake() {
        case .done:
            state.withLock { state in
                state.ready = true
                state.interest = .readable
            }
            server.loop.change(fd, to: .readable)
            receive()
        case .wantsRead:
            server.loop.change(fd, to: .readable)
        case .wantsWrite:
            server.loop.change(fd, to: [.readable, .writable])
        case .failed(let why):
            close(reason: why)
        }
    }

    /// Reads what has come (up to 256 KiB a turn, so that one client cannot hold the loop) and
    /// answers the requests it completes; reads nothing more while the answers waiting to be
    /// written pass `readPauseLimit` (resumed by `flush`).
    private func receive() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var total = 0
        while total < 256 * 1024 {
            let paused = state.withLock { state -> Bool in
                guard !state.closed else { return true }
                if state.pending >= readPauseLimit, !state.readPaused {
                    state.readPaused = true
                    updateInterest(&state)
                }
                return state.readPaused
            }
            if paused { return }
            switch buffer.withUnsafeMutableBytes({ stream.receive(into: $0) }) {
            case .bytes(let count) where count > 0:
                total += count
                state.withLock { state in
                    buffer.withUnsafeBytes { state.reader.append(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
                }
                guard process() else { return }
            case .bytes, .wantsRead, .wantsWrite:
                // Bytes TLS has decrypted already are read now: the socket will not wake us for them.
                if stream.pendingBytes > 0 { continue }
                return
            case .closed:
                return close(reason: nil)
            case .failed:
                return close(reason: nil)
            }
        }
        // A turn's share read: the rest (in the socket, or held by TLS) on the next turn.
        if stream.pendingBytes > 0 { server.loop.execute { [weak self] in self?.receive() } }
    }

    /// Takes the reader's items; false once the connection is closed.
    private func process() -> Bool {
        while true {
            let now = server.loop.now()
            let item = state.withLock { state -> RTSPMessageReader.Item? in
                guard !state.closed else { return nil }
                let item = state.reader.next()
                if let item {
                    if case .request = item {
                        state.requests += 1
                        state.lastActivity = now
                    }
                    // Interleaved frames before the first request do not stop its clock.
                    if state.requests > 0 { state.requestSince = nil }
                }
                if state.reader.buffered > 0, state.requestSince == nil { state.requestSince = now }
                return item
            }
            guard let item else { return !state.withLock { $0.closed } }
            switch item {
            case .request(let request):
                answer(request)
            case .interleaved(_, let payload):
                let flood = state.withLock { state -> Bool in
                    // RTCP of a session playing over TCP is a sign of life; other frames (before
                    // SETUP, or beside UDP) are dropped and are not.
                    if state.session?.usesTCP == true { state.lastActivity = now }
                    if now - state.interleaved.since >= 1 { state.interleaved = (0, now) }
                    state.interleaved.bytes += payload.count + 4
                    return state.interleaved.bytes > Self.interleavedPerSecond
                }
                if flood {
                    close(reason: "over \(Self.interleavedPerSecond) bytes of interleaved data in a second")
                    return false
                }
            case .refused(let status, let reason):
                write(reply(status), cseq: nil)
                flush()
                close(reason: "request refused with \(status): \(reason)")
                return false
            }
        }
    }

    // MARK: - Writing

    /// Appends a response (with the request's CSeq) to the output and writes what the socket takes.
    private func write(_ response: RTSPResponse, cseq: String?) {
        var response = response
        if let cseq { response.fields.insert(RTSPHeaderField("CSeq", cseq), at: 0) }
        response.add("Server", "OnAir")
        let bytes = response.bytes
        state.withLock { $0.output.append(contentsOf: bytes) }
        flush()
    }

    /// Writes what waits in the output until the socket is full; asks for `writable` while bytes
    /// remain, pumps the viewer again once a full output has drained and reads again once the
    /// answers that paused reading have.
    func flush() {
        var drained = false
        var failed = false
        var resumed = false
        state.withLock { state in
            guard !state.closed else { return }
            let before = state.pending
            sending: while state.pending > 0 {
                let outcome = state.output.withUnsafeBytes { raw in
                    stream.send(UnsafeRawBufferPointer(rebasing: raw[state.outputStart...]))
                }
                switch outcome {
                case .bytes(let sent) where sent > 0:
                    state.outputStart += sent
                case .bytes, .wantsWrite, .wantsRead:
                    break sending
                case .closed, .failed:
                    failed = true
                    return
                }
            }
            if state.pending == 0 {
                state.output.removeAll(keepingCapacity: state.output.capacity <= 1 << 20)
                state.outputStart = 0
            } else if state.outputStart > 64 * 1024 {
                state.output.removeFirst(state.outputStart)
                state.outputStart = 0
            }
            if state.readPaused, state.pending < server.settings.outputLimit {
                state.readPaused = false
                resumed = true
            }
            if state.ready { updateInterest(&state) }
            drained = before >= server.settings.outputLimit && state.pending < server.settings.outputLimit
        }
        if failed { return close(reason: nil) }
        if drained { queuePump() }
        // Bytes TLS decrypted before the pause wake no socket event: read them now.
        if resumed { server.loop.execute { [weak self] in self?.receive() } }
    }

    // MARK: - Requests

    /// The URL the tracks' controls are relative to: the request's without its query (a player's
    /// `?tcp` would otherwise end up inside every track's URL), ending in "/".
    static func base(of uri: String) -> String {
        let url = uri.prefix { $0 != "?" }
        return url.hasSuffix("/") ? String(url) : url + "/"
    }

    /// A response with `status`, these fields in order and `body`.
    private func reply(_ status: Int, _ fields: [(String, String)] = [], body: [UInt8] = []) -> RTSPResponse {
        RTSPResponse(status: status, fields: fields.map { RTSPHeaderField($0.0, $0.1) }, body: body)
    }

    private func answer(_ request: RTSPRequest) {
        let cseq = request.cseq
        let method = request.method
        let methods = "OPTIONS, DESCRIBE, SETUP, PLAY, PAUSE, TEARDOWN, GET_PARAMETER, SET_PARAMETER"
        if method == "OPTIONS" { return write(reply(200, [("Public", methods)]), cseq: cseq) }
        guard ["DESCRIBE", "SETUP", "PLAY", "PAUSE", "TEARDOWN", "GET_PARAMETER", "SET_PARAMETER"].contains(method) else {
            return write(reply(405, [("Allow", methods)]), cseq: cseq)
        }
        // Admission before credentials (as gst-rtsp-server's pre-describe check did): a blocked
        // address gets 403 whatever it sends, and DESCRIBE gets 503 while every slot is taken.
        let admitted = server.hooks.admit(peer.host)
        if admitted == 403 || (method == "DESCRIBE" && admitted != 200) { return write(reply(admitted), cseq: cseq) }
        var key = 0
        if let keys = server.keys {
            key = keys.admit(method: method, authorization: request.headers("Authorization"), peer: peer.host)
            guard key > 0 else {
                return write(reply(401, keys.challenge().map { ("WWW-Authenticate", $0) }), cseq: cseq)
            }
        }
        switch method {
        case "DESCRIBE": describe(request, cseq: cseq)
        case "SETUP": setup(request, cseq: cseq)
        case "PLAY": play(request, cseq: cseq, key: key)
        case "PAUSE": pause(request, cseq: cseq)
        case "TEARDOWN": teardown(request, cseq: cseq)
        default: keepAlive(request, cseq: cseq)
        }
    }

    private func describe(_ request: RTSPRequest, cseq: String?) {
        guard let path = request.path, let source = server.settings.paths[path] else {
            return write(reply(404), cseq: cseq)
        }
        let tracks = RTSPLiveSession.tracks(of: source)
        guard tracks.count == source.streams.count, !tracks.isEmpty else {
            // The stream has not begun (no keyframe yet): the SDP would lack its parameter sets.
            return write(reply(503), cseq: cseq)
        }
        let media = tracks.enumerated().map { index, track in
            RTPSessionDescription.media(of: track, control: "stream=\(index)")
        }
        let host = server.address.family == AF_INET ? server.address.host : "0.0.0.0"
        var sdp = RTPSessionDescription.session(media: media, address: host, sessionID: UInt64.random(in: 1...UInt64(Int64.max)))
        if let mediaStart = sdp.range(of: "m=") {
            sdp.insert(contentsOf: "a=control:*\r\na=range:\(RTSPRange.live)\r\n", at: mediaStart.lowerBound)
        }
        let base = Self.base(of: request.uri)
        write(
            reply(200, [("Content-Type", "application/sdp"), ("Content-Base", base)], body: Array(sdp.utf8)),
            cseq: cseq)
    }

    private func setup(_ request: RTSPRequest, cseq: String?) {
        guard let requested = request.path, let (path, index) = RTSPLiveSession.track(in: requested, paths: server.settings.paths)
        else { return write(reply(404), cseq: cseq) }
        guard let source = server.settings.paths[path] else { return write(reply(404), cseq: cseq) }
        let tracks = RTSPLiveSession.tracks(of: source)
        guard index < tracks.count else { return write(reply(404), cseq: cseq) }
        let mediaType: MediaType = tracks[index].codec == .aac ? .audio : .video
        guard let header = request.header("Transport"), let choice = RTSPTransportSpec(header: header) else {
            return write(reply(461), cseq: cseq)
        }
        if case .udp = choice, server.udp.isEmpty { return write(reply(461), cseq: cseq) }
        let result = state.withLock { state -> Result<(String, String), RTSPRefusal> in
            if let given = request.header("Session") {
                guard let session = state.session, session.id == RTSPLiveSession.id(fromHeader: given) else {
                    return .failure(RTSPRefusal(status: 454))
                }
                guard session.path == path else { return .failure(RTSPRefusal(status: 459)) }
                guard session.viewer == nil else { return .failure(RTSPRefusal(status: 455)) }
            } else if let session = state.session, session.viewer != nil {
                // One session a connection: a second one while the first plays is not served.
                return .failure(RTSPRefusal(status: 455))
            }
            var session = state.session?.path == path ? state.session! : RTSPLiveSession(path: path)
            let transport: RTSPLiveSession.Transport
            let answer: String
            let rewrite = RTPClientRewrite(timestampOffset: server.settings.sharedTimestamps ? 0 : nil)
            switch choice {
            case .udp(let rtp, let rtcp):
                guard let ports = server.udp[mediaType] else { return .failure(RTSPRefusal(status: 461)) }
                transport = .udp(rtp: peer.with(port: Int(rtp)), rtcp: peer.with(port: Int(rtcp)), server: ports)
                answer = RTSPTransportSpec.udpAnswer(
                    client: (rtp, rtcp), server: (UInt16(ports.port), UInt16(ports.port + 1)), ssrc: rewrite.ssrc)
            case .tcp(let channels):
                let pair = channels ?? (UInt8(2 * index), UInt8(2 * index + 1))
                transport = .tcp(rtp: pair.0, rtcp: pair.1)
                answer = RTSPTransportSpec.tcpAnswer(channels: pair, ssrc: rewrite.ssrc)
            }
            session.tracks[index] = RTSPLiveSession.Track(mediaType: mediaType, rewrite: rewrite, transport: transport)
            state.session = session
            return .success((session.header(timeout: server.settings.sessionTimeout), answer))
        }
        switch result {
        case .success(let (session, transport)):
            write(reply(200, [("Transport", transport), ("Session", session)]), cseq: cseq)
        case .failure(let refusal):
            write(reply(refusal.status), cseq: cseq)
        }
    }

    private func play(_ request: RTSPRequest, cseq: String?, key: Int) {
        guard let session = matchingSession(request) else { return write(reply(454), cseq: cseq) }
        guard !session.tracks.isEmpty else { return write(reply(455), cseq: cseq) }
        var viewer = session.viewer
        if viewer == nil {
            let udp = session.tracks.values.contains { if case .udp = $0.transport { true } else { false } }
            do {
                viewer = try server.hooks.play(session.path, peer.host, key, udp ? "rtsp/udp" : "rtsp/tcp")
            } catch {
                return write(reply(error.status), cseq: cseq)
            }
        }
        guard let viewer else { return }
        let base = Self.base(of: request.uri)
        // The first chunk (the keyframe the queue starts at) fixes each track's rtptime: the
        // track's timestamp at that media time, the viewer's offset on it.
        let first = session.viewer == nil ? viewer.readChunk(wait: 0) : .nothing
        let info = state.withLock { state -> String in
            guard var current = state.session else { return "" }
            current.viewer = viewer
            current.playedAt = current.playedAt ?? server.loop.now()
            if case .chunk(let chunk) = first { current.held = (chunk, 0) }
            if current.pacer == nil, current.usesUDP { current.pacer = ServeJoinPacer() }
            state.session = current
            guard let source = server.settings.paths[current.path] else { return "" }
            return current.rtpInfo(base: base, source: source, start: current.held?.chunk.packet?.pts)
        }
        var headers = [("Session", session.header(timeout: server.settings.sessionTimeout)), ("Range", RTSPRange.live)]
        if !info.isEmpty { headers.append(("RTP-Info", info)) }
        write(reply(200, headers), cseq: cseq)
        if session.viewer == nil {
            let loop = server.loop
            viewer.whenCut { [weak self] in
                loop.execute { [weak self] in self?.close(reason: viewer.cutReason ?? "cut") }
            }
            sendReports()
            queuePump()
        }
    }

    private func pause(_ request: RTSPRequest, cseq: String?) {
        guard let session = matchingSession(request) else { return write(reply(454), cseq: cseq) }
        let viewer = state.withLock { state -> ServeViewer? in
            defer {
                state.session?.viewer = nil
                state.session?.held = nil
            }
            return state.session?.viewer
        }
        viewer?.close()
        write(reply(200, [("Session", session.header(timeout: server.settings.sessionTimeout))]), cseq: cseq)
    }

    private func teardown(_ request: RTSPRequest, cseq: String?) {
        guard matchingSession(request) != nil else { return write(reply(454), cseq: cseq) }
        let viewer = state.withLock { state -> ServeViewer? in
            defer { state.session = nil }
            return state.session?.viewer
        }
        viewer?.close()
        write(reply(200), cseq: cseq)
    }

    private func keepAlive(_ request: RTSPRequest, cseq: String?) {
        if request.header("Session") != nil {
            guard let session = matchingSession(request) else { return write(reply(454), cseq: cseq) }
            return write(
                reply(200, [("Session", session.header(timeout: server.settings.sessionTimeout))]), cseq: cseq)
        }
        write(reply(200), cseq: cseq)
    }

    private func matchingSession(_ request: RTSPRequest) -> RTSPLiveSession? {
        guard let given = request.header("Session") else { return nil }
        return state.withLock { state in
            state.session.flatMap { $0.id == RTSPLiveSession.id(fromHeader: given) ? $0 : nil }
        }
    }

    // MARK: - Media

    /// Sends the viewer's queue on the loop's thread soon (once, however often it is asked).
    func queuePump() {
        let first = state.withLock { state in
            defer { state.pumpQueued = true }
            return !state.pumpQueued && !state.closed
        }
        if first { server.loop.execute { [weak self] in self?.pump() } }
    }

    /// Sends what the viewer's queue holds: until it is empty (then the hub wakes us for the next
    /// chunk), a UDP join is paced (then a timer resumes), or a TCP output passes its limit (then
    /// its draining resumes).
    private func pump() {
        state.withLock { $0.pumpQueued = false }
        while true {
            let step = state.withLock { state -> PumpStep in
                guard !state.closed, var session = state.session, let viewer = session.viewer else { return .stop }
                if state.pending >= server.settings.outputLimit { return .stop }
                if let held = session.held, let pts = held.chunk.packet?.pts, held.next == 0, var pacer = session.pacer {
                    let delay = pacer.delay(media: pts.seconds, now: server.loop.now())
                    session.pacer = pacer
                    state.session = session
                    if delay > 0 { return .wait(delay) }
                }
                if session.held != nil { return .send }
                return .read(viewer)
            }
            switch step {
            case .stop:
                flush()
                return
            case .wait(let delay):
                flush()
                server.loop.schedule(after: delay) { [weak self] in self?.queuePump() }
                return
            case .send:
                sendHeld()
            case .read(let viewer):
                switch viewer.readChunk(wait: 0) {
                case .chunk(let chunk):
                    state.withLock { state in
                        // Sound starts live: the keyframe cache's audio would reach the client
                        // in a burst, and a recorder that stamps packets by their arrival
                        // (Frigate's -use_wallclock_as_timestamps) then hands its AAC encoder
                        // frames closer than their duration ("Queue input is backward in
                        // time"). The picture from the keyframe on still comes at once.
                        if chunk.packet?.mediaType == .audio, let since = state.session?.playedAt, chunk.published < since { return }
                        state.session?.held = (chunk, 0)
                    }
                case .nothing:
                    flush()
                    viewer.notify { [weak self] in self?.queuePump() }
                    return
                case .end:
                    flush()
                    return close(reason: nil)
                case .cut:
                    return close(reason: viewer.cutReason ?? "cut")
                }
            }
        }
    }

    private enum PumpStep {
        case stop
        case wait(Double)
        case send
        case read(ServeViewer)
    }

    /// Sends the held chunk's RTP packets on each track's transport.
    private func sendHeld() {
        state.withLock { state in
            guard var session = state.session, let held = session.held else { return }
            session.held = nil
            let type = held.chunk.packet?.mediaType ?? .video
            if let index = session.tracks.firstIndex(where: { $0.value.mediaType == type }) {
                var track = session.tracks.values[index]
                for packet in held.chunk.rtp {
                    let header = track.rewrite.header(for: packet)
                    switch track.transport {
                    case .udp(let rtp, _, let ports):
                        header.withUnsafeBytes { head in
                            packet.withPayloadParts { prefix, body in
                                _ = NetSocket.send(ports.rtp, to: rtp, parts: [head, prefix, body])
                            }
                        }
                    case .tcp(let channel, _):
                        let length = RTPHeader.size + packet.payloadCount
                        state.output.append(contentsOf: [0x24, channel, UInt8(length >> 8), UInt8(length & 0xFF)])
                        header.withUnsafeBytes { state.output.append(contentsOf: $0) }
                        packet.withPayloadParts { prefix, body in
                            state.output.append(contentsOf: prefix)
                            state.output.append(contentsOf: body)
                        }
                    }
                }
                session.tracks.values[index] = track
            }
            state.session = session
        }
    }

    /// Sends each track's RTCP sender report (then again every `senderReportInterval`).
    private func sendReports() {
        let interval = server.settings.senderReportInterval
        let sent = state.withLock { state -> Bool in
            guard !state.closed, let session = state.session, session.viewer != nil,
                let source = server.settings.paths[session.path], let clock = source.rtpClock
            else { return false }
            let now = server.loop.now()
            let wall = server.settings.wallClock()
            for track in session.tracks.values {
                guard let packetizer = source.rtpTrack(track.mediaType) else { continue }
                let shared = packetizer.timestamp(at: clock.mediaTime(atMonotonic: now))
                let report = RTCPSenderReport(for: track.rewrite, sharedTimestamp: shared, wallClock: wall).compound(
                    cname: server.settings.cname)
                switch track.transport {
                case .udp(_, let rtcp, let ports):
                    report.withUnsafeBytes { _ = NetSocket.send(ports.rtcp, to: rtcp, parts: [$0]) }
                case .tcp(_, let channel):
                    state.output.append(contentsOf: [0x24, channel, UInt8(report.count >> 8), UInt8(report.count & 0xFF)])
                    state.output.append(contentsOf: report)
                }
            }
            return true
        }
        guard sent else { return }
        flush()
        server.loop.schedule(after: interval) { [weak self] in self?.sendReports() }
    }

    // MARK: - Life

    /// RTCP (or anything) came from the client's address over UDP: a sign of life.
    func heardUDP(at now: Double) {
        state.withLock { state in
            if state.session?.usesUDP == true { state.lastActivity = now }
        }
    }

    /// The request and session timeouts; a viewer whose output is full judged for a cut.
    func check(now: Double) {
        let (verdict, viewer, pending) = state.withLock { state -> (String?, ServeViewer?, Int) in
            if let since = state.requestSince, now - since > server.settings.requestTimeout {
                let what = state.reader.buffered > 0 ? "a request still incomplete" : "no request"
                return ("\(what) after \(Int(server.settings.requestTimeout)) s", nil, 0)
            }
            if now - state.lastActivity > server.settings.sessionTimeout {
                return ("nothing from the client for \(Int(server.settings.sessionTimeout)) s", nil, 0)
            }
            let blocked = state.pending >= server.settings.outputLimit
            return (nil, blocked ? state.session?.viewer : nil, state.pending)
        }
        if let verdict { return close(reason: verdict) }
        if let viewer, viewer.cutIfTooFarBehind(context: "\(pending) bytes waiting to be written on its connection") {
            close(reason: viewer.cutReason ?? "too slow")
        }
    }

    /// Closes the connection and ends its viewer (giving its slot back); `reason` is logged.
    func close(reason: String?) {
        let viewer = state.withLock { state -> ServeViewer?? in
            guard !state.closed else { return nil }
            state.closed = true
            defer { state.session = nil }
            return .some(state.session?.viewer)
        }
        guard let viewer else { return }
        viewer?.close()
        server.loop.unregister(fd)
        stream.close()
        Glibc.close(fd)
        server.remove(fd)
        if let reason { server.hooks.log("rtsp: \(peer.host) closed: \(reason)") }
    }
}
#endif
