import Foundation
import OnAirCore
import OnAirSRT

/// The SRT face of `onair serve`: one libsrt listener that accepts many callers at once, each an
/// MPEG-TS viewer of the hub with its own queue and thread, and its libsrt figures (RTT, loss,
/// send-buffer delay) in the statistics.
///
/// With a passphrase, callers without it (or with another) are refused by libsrt's handshake.
package final class ServeSRTListener: @unchecked Sendable {
    /// The UDP port listened on.
    public let port: Int
    private let listener: SRTSocket
    private let hub: ServeHub
    private let group = DispatchGroup()
    private let lock = NSLock()
    private var stopped = false
    private var callers: [Int: SRTSocket] = [:]
    private var failure: SRTError?
    /// What admits callers: the passphrase (the first token, `token #1`), or nothing. Once a reload
    /// withdraws it the hub refuses every caller (the passphrase stays until a restart).
    private let credential: ServeCredential

    /// Listens on `host`:`port` (0 picks one). `passphrase` must be 10–79 characters.
    public init(host: String, port: Int, passphrase: String?, latencyMilliseconds: Int32 = 120, hub: ServeHub) throws {
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
        credential = passphrase == nil ? .anyone : .token(1)
        group.startThread(named: "onair.serve.srt.accept") { [self] in acceptCallers() }
    }

    /// The error that stopped accepting, if any.
    public var error: SRTError? {
        lock.lock()
        defer { lock.unlock() }
        return failure
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func acceptCallers() {
        while !isStopped {
            let caller: SRTSocket?
            do {
                caller = try listener.accept(timeout: .milliseconds(250))
            } catch {
                if !isStopped {
                    lock.lock()
                    failure = error
                    lock.unlock()
                }
                return
            }
            guard let caller else { continue }
            let viewer: ServeViewer
            do {
                viewer = try hub.openViewer(format: .mpegTS, transport: "srt", peer: caller.endpoint, credential: credential)
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
            lock.lock()
            callers[viewer.id] = caller
            lock.unlock()
            group.startThread(named: "onair.serve.srt.\(viewer.id)") { [self] in
                serve(viewer, on: caller)
                lock.lock()
                callers[viewer.id] = nil
                lock.unlock()
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
        lock.lock()
        stopped = true
        let open = Array(callers.values)
        lock.unlock()
        listener.close()
        for caller in open { caller.close() }
        group.wait()
    }
}
