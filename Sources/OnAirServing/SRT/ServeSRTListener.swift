#if os(Linux)
import Foundation
import OnAirCore
import OnAirSRT

/// The SRT face of `onair serve`: one libsrt listener that accepts many callers at once, each an
/// MPEG-TS viewer of the hub with its own queue and thread, and its libsrt figures (RTT, loss,
/// send-buffer delay) in the statistics.
///
/// With a passphrase, callers without it (or with another) are refused by libsrt's handshake. The
/// passphrase is chosen as each caller connects (`SRTPassphraseChooser`), so a reload can change
/// it (`setTokens`: the newest token, the last listed; a caller's key exchange allows one), add
/// one to a listener started open, or take it away when the server becomes open; each caller
/// remembers the token it came with (`anyone` when none was asked).
package final class ServeSRTListener: Sendable {
    /// The UDP port listened on.
    public let port: Int
    private let listener: SRTSocket
    private let hub: ServeHub
    private let group = DispatchGroup()
    private struct State {
        var stopped = false
        var callers: [Int: SRTSocket] = [:]
        var failure: SRTError?
    }

    private let state = Locked(State())
    /// What new callers need: the passphrase and its token's number (an empty passphrase, number
    /// 0: none, the server is open); nil: no caller is let in (credentials are asked for and no
    /// listed token can be a passphrase).
    private let passphrase: Locked<(secret: String, number: Int)?>
    private let chooser: SRTPassphraseChooser

    /// Listens on `host`:`port` (0 picks one). `passphrase` must be 10–79 characters; `number` is
    /// its token's (the access policy's).
    public init(
        host: String, port: Int, passphrase: String?, number: Int = 1, latencyMilliseconds: Int32 = 120, hub: ServeHub
    ) throws {
        guard (0...65_535).contains(port) else {
            throw SettingsError(field: "srtPort", value: "\(port)", allowed: "0…65535")
        }
        if let passphrase, !(10...79).contains(passphrase.count) {
            throw SettingsError(
                field: "passphrase", value: "\(passphrase.count) characters", allowed: "10–79 characters (the SRT passphrase is the token)")
        }
        var options = SRTSocketOptions()
        options.transmissionType = .live
        options.latencyMilliseconds = latencyMilliseconds
        options.passphrase = passphrase
        if passphrase != nil { options.enforcedEncryption = true }
        options.sendTimeoutMilliseconds = 1000
        options.peerIdleTimeoutMilliseconds = 5000
        listener = try SRTSocket.listen(host: host, port: UInt16(port), backlog: 16, options: options)
        self.port = Int(listener.localPort)
        self.hub = hub
        let current = Locked<(secret: String, number: Int)?>(passphrase.map { ($0, number) } ?? ("", 0))
        self.passphrase = current
        // The chooser is set even without a passphrase, so a reload can ask for one.
        let made = SRTPassphraseChooser { _ in current.withLock { $0.map { ($0.secret, $0.number) } } }
        chooser = made
        try listener.choosePassphrases(made)
        group.startThread(named: "onair.serve.srt.accept") { [self] in acceptCallers() }
    }

    /// Puts the newest of `tokens` that can be a passphrase (10–79 characters) in force for callers
    /// from now on, or no passphrase when the server is `open`; callers connected are not touched
    /// (the hub cuts those of a removed token). False when credentials are asked for and none of
    /// `tokens` can be a passphrase: no caller is let in until a reload lists one.
    @discardableResult
    func setTokens(_ tokens: [(secret: String, number: Int)], open: Bool) -> Bool {
        let chosen = open ? ("", 0) : tokens.last { (10...79).contains($0.secret.count) }
        passphrase.withLock { $0 = chosen }
        return chosen != nil
    }

    /// Whether the listener lets no caller in now: credentials are asked for and no listed token
    /// can be a passphrase (a users-only server, or tokens too short or long).
    var isLocked: Bool { passphrase.withLock { $0 == nil } }

    /// The error that stopped accepting, if any.
    package var error: SRTError? { state.withLock { $0.failure } }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    /// Which encode a caller asks for by its stream id (`SRTO_STREAMID`): none, empty or `live` the
    /// main one; a further encode's name (`sub`), alone or as SRT's access-control form
    /// `#!::r=sub[,m=request…]`, that encode; anything else none (the caller is refused).
    package static func rendition(forStreamID streamID: String?, renditions: [String]) -> String? {
        guard let name = SRTStreamID.resource(streamID) else {
            return (streamID?.utf8.count ?? 0) > SRTStreamID.maximumLength ? nil : ServeHub.main
        }
        return name == ServeHub.main || renditions.contains(name) ? name : nil
    }

    private func acceptCallers() {
        let renditions = hub.renditions
        while !isStopped {
            let caller: SRTSocket?
            do {
                caller = try listener.accept(timeout: .milliseconds(250))
            } catch {
                if !isStopped { state.withLock { $0.failure = error } }
                return
            }
            guard let caller else { continue }
            guard let number = chooser.tag(of: caller) else {
                caller.close()  // accepted with no passphrase chosen: never expected
                continue
            }
            let credential: ServeCredential = number == 0 ? .anyone : .token(number)
            guard let rendition = Self.rendition(forStreamID: caller.streamID, renditions: renditions) else {
                caller.close()  // a stream id naming no stream served
                continue
            }
            let viewer: ServeViewer
            do {
                viewer = try hub.openViewer(
                    format: .mpegTS, rendition: rendition, transport: "srt", peer: caller.endpoint, credential: credential)
            } catch {
                caller.close()  // full, stopping or its token withdrawn: the caller sees the connection end
                continue
            }
            hub.setTransportFigures(for: viewer) {
                let figures = try? caller.statistics()
                return (
                    figures?.msRTT ?? 0, Int(figures?.pktSndLossTotal ?? 0), Int(figures?.pktSndDropTotal ?? 0),
                    Double(figures?.msSndBuf ?? 0)
                )
            }
            state.withLock { $0.callers[viewer.id] = caller }
            group.startThread(named: "onair.serve.srt.\(viewer.id)") { [self] in
                serve(viewer, on: caller)
                state.withLock { $0.callers[viewer.id] = nil }
            }
        }
    }

    /// Sends the viewer's queue to the caller, one SRT message (at most 1316 bytes: seven TS
    /// packets) at a time, until the stream ends, the caller leaves or falls too far behind.
    private func serve(_ viewer: ServeViewer, on caller: SRTSocket) {
        var buffer = [UInt8](repeating: 0, count: 1316)
        loop: while true {
            let read = buffer.withUnsafeMutableBytes { viewer.read(into: $0) }
            switch read {
            case .bytes(let count):
                do {
                    _ = try buffer.withUnsafeBytes { raw throws(SRTError) in
                        try caller.send(UnsafeRawBufferPointer(rebasing: raw[0..<count]))
                    }
                } catch {
                    break loop
                }
            case .nothing:
                if caller.state != .connected { break loop }
            case .end, .cut:
                break loop
            }
        }
        viewer.close()
        caller.close()
    }

    /// Stops accepting, ends every caller's stream and waits for their threads.
    public func stop() {
        let open = state.withLock { state in
            state.stopped = true
            return Array(state.callers.values)
        }
        listener.close()
        for caller in open { caller.close() }
        group.wait()
    }
}
#endif
