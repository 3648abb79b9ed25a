#if os(Linux)
import CSRT
import Foundation

/// One libsrt socket: a caller, a listener, or a connection a listener accepted.
///
/// The socket is closed in `deinit` (or earlier by `close()`). libsrt's calls are thread-safe, so
/// one thread may send while another reads statistics or closes; blocking calls (connect, accept,
/// send, receive) belong on a dedicated thread, not on Swift's cooperative pool.
/// Unchecked Sendable: a libsrt socket (libsrt's calls are thread-safe); its own vars are reached only under `lock`
package final class SRTSocket: @unchecked Sendable {
    private let lock = NSLock()
    private var handle: SRTSOCKET
    /// A listener's epoll, holding the listener from before it listens: libsrt signals a queued
    /// caller once, to the epolls registered at that moment (one added later is not told), so a
    /// poll made per `accept` could miss a caller that came in between and wait out its timeout.
    private var acceptPoll: Int32 = -1
    /// What the socket is for, used in error messages ("127.0.0.1:9000").
    package let endpoint: String
    /// A listener's passphrase chooser (`choosePassphrases`), kept as long as libsrt may call it.
    private var chooser: SRTPassphraseChooser?

    private init(handle: SRTSOCKET, endpoint: String) {
        self.handle = handle
        self.endpoint = endpoint
    }

    /// Creates an unconnected socket with `options` applied.
    private static func make(options: SRTSocketOptions, endpoint: String) throws(SRTError) -> SRTSocket {
        try SRTLibrary.start()
        let handle = srt_create_socket()
        if handle == SRT_INVALID_SOCK { throw SRTError.last("srt_create_socket") }
        let socket = SRTSocket(handle: handle, endpoint: endpoint)
        try socket.apply(options)
        return socket
    }

    /// Connects to a listener at `host`:`port` as a caller, giving up after `timeout`.
    package static func connect(
        host: String, port: UInt16, options: SRTSocketOptions = SRTSocketOptions(),
        timeout: Duration = .seconds(3)
    ) throws(SRTError) -> SRTSocket {
        let endpoint = "\(host):\(port)"
        let address = try SRTAddress.resolve(host: host, port: port, passive: false)
        let socket = try make(options: options, endpoint: endpoint)
        try socket.setOption(SRTO_CONNTIMEO, Int32(clamping: timeout.milliseconds), "connect timeout")
        let handle = socket.handle
        let status = address.withSockaddr { srt_connect(handle, $0, $1) }
        if status == SRT_ERROR { throw SRTError.last("srt_connect(\(endpoint))", socket: handle) }
        return socket
    }

    /// Binds to `host`:`port` and listens for callers; `port` 0 picks a free port (see `localPort`).
    ///
    /// The listener's options are inherited by every socket `accept` returns.
    package static func listen(
        host: String = "127.0.0.1", port: UInt16, backlog: Int32 = 8,
        options: SRTSocketOptions = SRTSocketOptions()
    ) throws(SRTError) -> SRTSocket {
        let endpoint = "\(host):\(port)"
        let address = try SRTAddress.resolve(host: host, port: port, passive: true)
        let socket = try make(options: options, endpoint: endpoint)
        let handle = socket.handle
        if address.withSockaddr({ srt_bind(handle, $0, $1) }) == SRT_ERROR {
            throw SRTError.last("srt_bind(\(endpoint))")
        }
        let poll = srt_epoll_create()
        if poll < 0 { throw SRTError.last("srt_epoll_create") }
        socket.acceptPoll = poll
        var wanted = Int32(SRT_EPOLL_IN.rawValue) | Int32(SRT_EPOLL_ERR.rawValue)
        if srt_epoll_add_usock(poll, handle, &wanted) == SRT_ERROR { throw SRTError.last("srt_epoll_add_usock(\(endpoint))") }
        if srt_listen(handle, backlog) == SRT_ERROR { throw SRTError.last("srt_listen(\(endpoint))") }
        return socket
    }

    /// Waits up to `timeout` (forever when nil) for a caller and returns its connection, or nil
    /// when none arrived in time. Call it repeatedly to accept many callers.
    package func accept(timeout: Duration? = nil) throws(SRTError) -> SRTSocket? {
        let listener = currentHandle()
        if let timeout {
            guard try waitForCaller(timeout: timeout) else { return nil }
        }
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let accepted = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { srt_accept(listener, $0, &length) }
        }
        if accepted == SRT_INVALID_SOCK { throw SRTError.last("srt_accept(\(endpoint))") }
        var peer = SRTAddress()
        peer.storage = storage
        peer.length = socklen_t(length)
        let (host, port) = peer.hostAndPort
        return SRTSocket(handle: accepted, endpoint: "\(host):\(port)")
    }

    /// Waits on the listener's own epoll until a caller is queued (or the socket fails) or
    /// `timeout` passes.
    private func waitForCaller(timeout: Duration) throws(SRTError) -> Bool {
        lock.lock()
        let poll = acceptPoll
        lock.unlock()
        guard poll >= 0 else { return true }  // Not a listener (or closed): srt_accept says why.
        var ready = SRT_EPOLL_EVENT()
        let count = srt_epoll_uwait(poll, &ready, 1, max(0, timeout.milliseconds))
        if count < 0 {
            let error = SRTError.last("srt_epoll_uwait(\(endpoint))")
            if error.isTimeout { return false }
            throw error
        }
        return count > 0
    }

    /// Sends one message (at most the payload size, 1316 bytes by default in live mode); returns the bytes taken.
    @discardableResult
    package func send(_ bytes: UnsafeRawBufferPointer) throws(SRTError) -> Int {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        let sent = srt_sendmsg2(currentHandle(), base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
        if sent == SRT_ERROR { throw SRTError.last("srt_sendmsg(\(endpoint))") }
        return Int(sent)
    }

    /// Sends one message from an array.
    @discardableResult
    package func send(_ bytes: [UInt8]) throws(SRTError) -> Int {
        let result: Result<Int, SRTError> = bytes.withUnsafeBytes { raw in
            do throws(SRTError) { return .success(try send(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Receives one message into `buffer` (which should hold at least the payload size); returns its length.
    package func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SRTError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let count = srt_recvmsg2(currentHandle(), base.assumingMemoryBound(to: CChar.self), Int32(buffer.count), nil)
        if count == SRT_ERROR { throw SRTError.last("srt_recvmsg(\(endpoint))") }
        return Int(count)
    }

    /// Receives one message of at most `maximumLength` bytes.
    package func receive(maximumLength: Int = 1500) throws(SRTError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximumLength)
        let result: Result<Int, SRTError> = buffer.withUnsafeMutableBytes { raw in
            do throws(SRTError) { return .success(try receive(into: raw)) } catch { return .failure(error) }
        }
        buffer.removeSubrange(try result.get()...)
        return buffer
    }

    /// Reads the connection's statistics; `clear` restarts the interval figures, `instantaneous`
    /// reads the buffer and RTT figures as they are now rather than smoothed.
    package func statistics(clear: Bool = false, instantaneous: Bool = true) throws(SRTError) -> SRTStatistics {
        var perf = SRT_TRACEBSTATS()
        if srt_bistats(currentHandle(), &perf, clear ? 1 : 0, instantaneous ? 1 : 0) == SRT_ERROR {
            throw SRTError.last("srt_bistats(\(endpoint))")
        }
        return SRTStatistics(perf)
    }

    /// What sits in the send buffer now: packets and bytes not yet acknowledged (`srt_getsndbuffer`).
    package func sendBufferLevel() throws(SRTError) -> (packets: Int, bytes: Int) {
        var blocks = 0
        var bytes = 0
        if srt_getsndbuffer(currentHandle(), &blocks, &bytes) == SRT_ERROR {
            throw SRTError.last("srt_getsndbuffer(\(endpoint))")
        }
        return (blocks, bytes)
    }

    /// Changes the ceiling on the sending rate of a connected socket (`SRTO_MAXBW`, bytes per
    /// second; -1: no limit, 0: relative to the input rate).
    package func setMaximumBandwidth(bytesPerSecond: Int64) throws(SRTError) {
        try setOption(SRTO_MAXBW, bytesPerSecond, "maxbw")
    }

    /// The socket's state now.
    package var state: SRTSocketState { SRTSocketState(srt_getsockstate(currentHandle())) }

    /// The stream id the caller sent (on an accepted socket) or set (on a caller).
    package var streamID: String? {
        var buffer = [CChar](repeating: 0, count: 513)
        var length = Int32(buffer.count - 1)
        guard srt_getsockflag(currentHandle(), SRTO_STREAMID, &buffer, &length) != SRT_ERROR, length > 0 else {
            return nil
        }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The local port (useful after listening on port 0).
    package var localPort: UInt16 {
        var address = SRTAddress()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let handle = currentHandle()
        let status = withUnsafeMutablePointer(to: &address.storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { srt_getsockname(handle, $0, &length) }
        }
        guard status != SRT_ERROR else { return 0 }
        address.length = socklen_t(length)
        return address.hostAndPort.port
    }

    /// Closes the socket now; a blocked accept, send or receive on another thread returns an error.
    /// Closing twice is harmless.
    package func close() {
        lock.lock()
        let old = handle, poll = acceptPoll
        handle = SRT_INVALID_SOCK
        acceptPoll = -1
        lock.unlock()
        if old != SRT_INVALID_SOCK { srt_close(old) }
        if poll >= 0 { srt_epoll_release(poll) }
    }

    deinit { close() }

    /// A listener's callers get their passphrase from `chooser` as they connect (libsrt's listen
    /// callback), instead of the listener's own.
    package func choosePassphrases(_ chooser: SRTPassphraseChooser) throws(SRTError) {
        let handle = currentHandle()
        lock.lock()
        self.chooser = chooser
        lock.unlock()
        let status = srt_listen_callback(
            handle,
            { opaque, socket, _, _, streamID in
                guard let opaque else { return 0 }
                let chooser = Unmanaged<SRTPassphraseChooser>.fromOpaque(opaque).takeUnretainedValue()
                return chooser.connecting(socket, streamID: streamID.map { String(cString: $0) })
            }, Unmanaged.passUnretained(chooser).toOpaque())
        if status == SRT_ERROR { throw SRTError.last("srt_listen_callback(\(endpoint))", socket: handle) }
    }

    /// The libsrt socket id (for `SRTPassphraseChooser.tag(of:)`).
    var socketID: SRTSOCKET { currentHandle() }

    private func currentHandle() -> SRTSOCKET {
        lock.lock()
        defer { lock.unlock() }
        return handle
    }

    // MARK: - Options

    private func apply(_ options: SRTSocketOptions) throws(SRTError) {
        let type = options.transmissionType == .live ? SRTT_LIVE : SRTT_FILE
        try setOption(SRTO_TRANSTYPE, Int32(type.rawValue), "transtype")
        if let value = options.latencyMilliseconds { try setOption(SRTO_LATENCY, value, "latency") }
        if let value = options.keyLength { try setOption(SRTO_PBKEYLEN, value, "pbkeylen") }
        if let value = options.passphrase { try setOption(SRTO_PASSPHRASE, value, "passphrase") }
        if let value = options.streamID { try setOption(SRTO_STREAMID, value, "streamid") }
        if let value = options.payloadSize { try setOption(SRTO_PAYLOADSIZE, value, "payload size") }
        if let value = options.sendBufferBytes { try setOption(SRTO_SNDBUF, value, "sndbuf") }
        if let value = options.receiveBufferBytes { try setOption(SRTO_RCVBUF, value, "rcvbuf") }
        if let value = options.tooLatePacketDrop { try setOption(SRTO_TLPKTDROP, value, "tlpktdrop") }
        if let value = options.sendDropDelayMilliseconds { try setOption(SRTO_SNDDROPDELAY, value, "snddropdelay") }
        if let value = options.sendBlocking { try setOption(SRTO_SNDSYN, value, "sndsyn") }
        if let value = options.receiveBlocking { try setOption(SRTO_RCVSYN, value, "rcvsyn") }
        if let value = options.sendTimeoutMilliseconds { try setOption(SRTO_SNDTIMEO, value, "sndtimeo") }
        if let value = options.receiveTimeoutMilliseconds { try setOption(SRTO_RCVTIMEO, value, "rcvtimeo") }
        if let value = options.peerIdleTimeoutMilliseconds { try setOption(SRTO_PEERIDLETIMEO, value, "peeridletimeo") }
        if let value = options.maxBandwidthBytesPerSecond { try setOption(SRTO_MAXBW, value, "maxbw") }
        if let value = options.inputBandwidthBytesPerSecond { try setOption(SRTO_INPUTBW, value, "inputbw") }
        if let value = options.overheadBandwidthPercent { try setOption(SRTO_OHEADBW, value, "oheadbw") }
        if let value = options.enforcedEncryption { try setOption(SRTO_ENFORCEDENCRYPTION, value, "enforcedencryption") }
    }

    private func setOption<T>(_ option: SRT_SOCKOPT, _ value: T, _ name: String) throws(SRTError) {
        var copy = value
        let status = withUnsafeBytes(of: &copy) { raw in
            srt_setsockflag(currentHandle(), option, raw.baseAddress, Int32(raw.count))
        }
        if status == SRT_ERROR { throw SRTError.last("srt_setsockflag(\(name))") }
    }

    private func setOption(_ option: SRT_SOCKOPT, _ value: Bool, _ name: String) throws(SRTError) {
        try setOption(option, Int32(value ? 1 : 0), name)
    }

    private func setOption(_ option: SRT_SOCKOPT, _ value: String, _ name: String) throws(SRTError) {
        let bytes = Array(value.utf8)
        let status = bytes.withUnsafeBytes { raw in
            srt_setsockflag(currentHandle(), option, raw.baseAddress, Int32(raw.count))
        }
        if status == SRT_ERROR { throw SRTError.last("srt_setsockflag(\(name))") }
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
#endif
