#if os(Linux)
import Foundation
import OnAirSRT
import Testing

@Suite struct SRTSocketTests {
    private static let passphrase = "onair-loopback-secret"

    private func listenerOptions(passphrase: String) -> SRTSocketOptions {
        var options = SRTSocketOptions()
        options.passphrase = passphrase
        options.keyLength = 16
        options.latencyMilliseconds = 80
        options.receiveTimeoutMilliseconds = 5000
        return options
    }

    /// Accepts one caller on a thread of its own and receives until `expected` messages arrived
    /// or the connection ends; returns the messages and the accepted socket's stream id.
    private func receiveOnThread(
        _ listener: SRTSocket, expected: Int
    ) -> (done: DispatchSemaphore, result: ReceiverResult) {
        let done = DispatchSemaphore(value: 0)
        let result = ReceiverResult()
        Thread.detachNewThread {
            defer { done.signal() }
            do {
                guard let connection = try listener.accept(timeout: .seconds(10)) else {
                    result.set(error: "no caller within 10 s")
                    return
                }
                result.set(streamID: connection.streamID)
                var messages: [[UInt8]] = []
                while messages.count < expected {
                    messages.append(try connection.receive(maximumLength: 1500))
                }
                result.set(messages: messages, statistics: try connection.statistics(), connection: connection)
            } catch {
                result.set(error: "\(error)")
            }
        }
        return (done, result)
    }

    @Test func callerAndListenerExchangeMessagesWithPassphrase() throws {
        let listener = try SRTSocket.listen(port: 0, options: listenerOptions(passphrase: Self.passphrase))
        let port = listener.localPort
        #expect(port != 0)
        #expect(listener.state == .listening)
        let messageCount = 200
        let (done, result) = receiveOnThread(listener, expected: messageCount)

        var options = SRTSocketOptions()
        options.passphrase = Self.passphrase
        options.keyLength = 16
        options.streamID = "#!::r=live/test,m=publish"
        options.latencyMilliseconds = 80
        let caller = try SRTSocket.connect(host: "127.0.0.1", port: port, options: options, timeout: .seconds(5))
        #expect(caller.state == .connected)
        for index in 0..<messageCount {
            let message = (0..<1316).map { UInt8(truncatingIfNeeded: $0 &+ index) }
            #expect(try caller.send(message) == 1316)
        }
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(result.error == nil, "\(result.error ?? "")")
        #expect(result.streamID == "#!::r=live/test,m=publish")
        #expect(result.messages.count == messageCount)
        #expect(result.messages.first == (0..<1316).map { UInt8(truncatingIfNeeded: $0) })
        #expect(result.messages.last == (0..<1316).map { UInt8(truncatingIfNeeded: $0 &+ (messageCount - 1)) })

        let sender = try caller.statistics()
        #expect(sender.pktSentTotal >= Int64(messageCount))
        #expect(sender.byteSentUniqueTotal >= UInt64(messageCount * 1316))
        #expect(sender.msRTT > 0)
        #expect(sender.byteMSS > 0)
        #expect((result.statistics?.pktRecvTotal ?? 0) >= Int64(messageCount))
        #expect((result.statistics?.pktRcvUndecryptTotal ?? -1) == 0)
        caller.close()
        #expect(caller.state == .nonexistent)
    }

    @Test func wrongPassphraseIsRefusedWithLibsrtReason() throws {
        let listener = try SRTSocket.listen(port: 0, options: listenerOptions(passphrase: Self.passphrase))
        let port = listener.localPort
        let (done, _) = receiveOnThread(listener, expected: 1)
        var options = SRTSocketOptions()
        options.passphrase = "not-the-right-passphrase"
        options.keyLength = 16
        do {
            _ = try SRTSocket.connect(host: "127.0.0.1", port: port, options: options, timeout: .seconds(3))
            Issue.record("a caller with the wrong passphrase was accepted")
        } catch {
            #expect(error.isRejected, "\(error)")
            #expect(error.rejectReason != nil, "\(error)")
            #expect(error.description.contains("srt_connect(127.0.0.1:\(port))"))
            #expect(!error.message.isEmpty)
            print("refused as expected: \(error)")
        }
        listener.close()
        _ = done.wait(timeout: .now() + 15)
    }

    @Test func connectingToNobodyFailsWithinTheTimeout() throws {
        let unused = try SRTSocket.listen(port: 0)
        let port = unused.localPort
        unused.close()
        let started = Date()
        #expect(throws: SRTError.self) {
            _ = try SRTSocket.connect(host: "127.0.0.1", port: port, timeout: .milliseconds(600))
        }
        #expect(Date().timeIntervalSince(started) < 10)
    }

    /// A UDP port something else holds (a plain socket, as another process would): the error names
    /// the system's reason, not only libsrt's "unable to create/configure SRT socket".
    @Test func listeningOnAPortInUseSaysSo() throws {
        let holder = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        #expect(holder >= 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(holder, $0, length) == 0 && getsockname(holder, $0, &length) == 0
            }
        }
        #expect(bound)
        let port = UInt16(bigEndian: address.sin_port)
        #expect {
            _ = try SRTSocket.listen(port: port)
        } throws: { error in
            "\(error)".contains("127.0.0.1:\(port)") && "\(error)".contains("Address already in use")
        }
    }

    @Test func acceptTimesOutWithoutCaller() throws {
        let listener = try SRTSocket.listen(port: 0)
        #expect(try listener.accept(timeout: .milliseconds(100)) == nil)
    }

    /// A caller that connected before anyone waited in `accept` is still there to accept at once
    /// (libsrt tells only the epolls registered when the caller was queued).
    @Test func aCallerQueuedBeforeAcceptIsAcceptedAtOnce() throws {
        let listener = try SRTSocket.listen(port: 0)
        let caller = try SRTSocket.connect(host: "127.0.0.1", port: listener.localPort, timeout: .seconds(5))
        #expect(caller.state == .connected)
        let started = Date()
        let accepted = try listener.accept(timeout: .seconds(3))
        #expect(accepted != nil, "the queued caller was not accepted")
        #expect(Date().timeIntervalSince(started) < 1, "accepted only after \(Date().timeIntervalSince(started)) s")
        // And a second caller while nobody waits, then a third while one does.
        let second = try SRTSocket.connect(host: "127.0.0.1", port: listener.localPort, timeout: .seconds(5))
        #expect(try listener.accept(timeout: .seconds(3)) != nil)
        let waiting = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var third: SRTSocket?
        Thread.detachNewThread {
            third = try? listener.accept(timeout: .seconds(5))
            waiting.signal()
        }
        let thirdCaller = try SRTSocket.connect(host: "127.0.0.1", port: listener.localPort, timeout: .seconds(5))
        #expect(waiting.wait(timeout: .now() + 6) == .success)
        #expect(third != nil)
        withExtendedLifetime((second, thirdCaller)) {}
    }

    @Test func badOptionCarriesLibsrtMessage() {
        var options = SRTSocketOptions()
        options.passphrase = "short"
        #expect {
            _ = try SRTSocket.listen(port: 0, options: options)
        } throws: { error in
            (error as? SRTError)?.operation == "srt_setsockflag(passphrase)"
        }
    }
}

/// What the receiving thread saw; guarded by a lock since the test thread reads it.
final class ReceiverResult: @unchecked Sendable {
    private let lock = NSLock()
    private var _messages: [[UInt8]] = []
    private var _statistics: SRTStatistics?
    private var _error: String?
    private var _streamID: String?
    /// Kept open until the test ends, so the caller can still read its statistics.
    private var connection: SRTSocket?

    var messages: [[UInt8]] { lock.withLock { _messages } }
    var statistics: SRTStatistics? { lock.withLock { _statistics } }
    var error: String? { lock.withLock { _error } }
    var streamID: String? { lock.withLock { _streamID } }

    func set(messages: [[UInt8]], statistics: SRTStatistics, connection: SRTSocket) {
        lock.withLock {
            _messages = messages; _statistics = statistics; self.connection = connection
        }
    }
    func set(error: String) { lock.withLock { _error = error } }
    func set(streamID: String?) { lock.withLock { _streamID = streamID } }
}
#endif
