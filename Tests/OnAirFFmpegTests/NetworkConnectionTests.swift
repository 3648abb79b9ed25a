#if os(Linux)
import Foundation
import OnAirCore
import OnAirFFmpeg
import OnAirTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// NetworkConnection's bounds on blocking calls, against a loopback TCP listener that never
/// accepts: the kernel completes the handshake and buffers a little, then every send stalls.
@Suite struct NetworkConnectionTests {
    /// AAC LC, 48 kHz, stereo.
    static let aac: [MediaType: FormatDescription] = [.audio: .aac(audioSpecificConfig: [0x11, 0x90])]

    /// A listening socket on 127.0.0.1 that never accepts; returns the descriptor and port.
    static func silentListener() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0, ok else { throw ToolError.failed("cannot listen on 127.0.0.1") }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    @Test func aStalledSendFailsAfterTheDeadline() throws {
        let listener = try Self.silentListener()
        defer { close(listener.fd) }
        let deadline = NetworkDeadline()
        deadline.arm(seconds: 5)
        let connection = try NetworkConnection(
            url: "tcp://127.0.0.1:\(listener.port)", displayName: "tcp test", format: "mpegts", descriptions: Self.aac,
            muxerOptions: ["flush_packets": "1"], protocolOptions: ["tcp_nodelay": "1"], deadline: deadline)
        defer { connection.abandon() }
        let payload = [UInt8](repeating: 0x5A, count: 4000)
        let started = Date()
        var failure: (any Error)?
        var lastCall = 0.0
        for index in 0..<200_000 where Date().timeIntervalSince(started) < 60 {
            let packet = EncodedPacket(
                mediaType: .audio, codec: .aac, data: payload,
                pts: MediaTime(value: Int64(index) * 1024, timescale: 48_000),
                dts: MediaTime(value: Int64(index) * 1024, timescale: 48_000),
                duration: MediaTime(value: 1024, timescale: 48_000), isKeyframe: true,
                formatDescription: index == 0 ? .aac(audioSpecificConfig: [0x11, 0x90]) : nil)
            deadline.arm(seconds: 1)
            let callStart = Date()
            do { try connection.send(packet) } catch {
                failure = error
                lastCall = Date().timeIntervalSince(callStart)
                break
            }
        }
        let error = try #require(failure as? FFmpegError, "sends never stalled")
        print("stalled send failed after \(lastCall) s: \(error)")
        #expect(lastCall >= 0.9 && lastCall < 4, "the stalled call took \(lastCall) s")
    }

    @Test func cancelEndsAListenerWaitingForItsPeer() throws {
        let probe = try Self.silentListener()
        close(probe.fd)
        let port = probe.port
        let deadline = NetworkDeadline()
        deadline.arm(seconds: .infinity)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { deadline.cancel() }
        let started = Date()
        #expect(throws: FFmpegError.self) {
            _ = try NetworkConnection(
                url: "tcp://127.0.0.1:\(port)?listen=1", displayName: "tcp listener", format: "mpegts",
                descriptions: Self.aac, muxerOptions: [:], protocolOptions: [:], deadline: deadline)
        }
        let waited = Date().timeIntervalSince(started)
        #expect(waited < 3, "the listener ignored cancel for \(waited) s")
    }
}
#endif
