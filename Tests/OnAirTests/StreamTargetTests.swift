#if os(Linux)
import OnAir
import Testing

/// Parsing streaming URLs into what the muxer and the protocol are given.
@Suite struct StreamTargetTests {
    @Test func eachSchemePicksItsMuxerAndRole() throws {
        let cases: [(String, StreamTarget.Transport, String, Bool)] = [
            ("rtmp://127.0.0.1/live/key", .rtmp, "flv", false),
            ("rtmps://127.0.0.1:443/live/key", .rtmps, "flv", false),
            ("srt://127.0.0.1:9000?mode=listener&latency=20000", .srt, "mpegts", true),
            ("srt://127.0.0.1:9000", .srt, "mpegts", false),
            ("tcp://127.0.0.1:9000?listen=1", .tcp, "mpegts", true),
            ("udp://127.0.0.1:9000", .udp, "mpegts", false),
            ("rtsp://127.0.0.1:8554/live", .rtsp, "rtsp", false),
        ]
        for (url, transport, muxer, listener) in cases {
            let target = try StreamTarget(parsing: url)
            #expect(target.transport == transport, "\(url)")
            #expect(target.muxer == muxer, "\(url)")
            #expect(target.isListener == listener, "\(url)")
        }
    }

    @Test func rtspPublishesInterleavedOverTCP() throws {
        let target = try StreamTarget(parsing: "rtsp://127.0.0.1:8554/live")
        #expect(target.muxerOptions["rtsp_transport"] == "tcp")
        #expect(target.transport.isTCP)
        #expect(throws: StreamError.self) { try StreamTarget(parsing: "rtsp://127.0.0.1/live") }
    }

    @Test func mistakesAreNamed() {
        #expect(throws: StreamError.self) { try StreamTarget(parsing: "http://127.0.0.1:80/x") }
        #expect(throws: StreamError.self) { try StreamTarget(parsing: "udp://127.0.0.1") }
        #expect(throws: StreamError.self) { try StreamTarget(parsing: "rtmps://127.0.0.1/live") }
        #expect(throws: StreamError.invalidPassphrase(destination: "srt://127.0.0.1:9000?passphrase=***")) {
            try StreamTarget(parsing: "srt://127.0.0.1:9000?passphrase=short")
        }
    }

    @Test func udpGetsWholeTSPacketsPerDatagramUnlessTheURLSaysOtherwise() throws {
        #expect(try StreamTarget(parsing: "udp://127.0.0.1:9000").url == "udp://127.0.0.1:9000?pkt_size=1316")
        #expect(try StreamTarget(parsing: "udp://127.0.0.1:9000?ttl=2").url == "udp://127.0.0.1:9000?ttl=2&pkt_size=1316")
        #expect(try StreamTarget(parsing: "udp://127.0.0.1:9000?pkt_size=188").url == "udp://127.0.0.1:9000?pkt_size=188")
    }

    @Test func liveMPEGTSNeitherGathersAudioNorHidesVideoLengths() throws {
        let options = try StreamTarget(parsing: "srt://127.0.0.1:9000").muxerOptions
        #expect(options["pes_payload_size"] == "0")
        #expect(options["omit_video_pes_length"] == "0")
        #expect(options["flush_packets"] == "1")
        #expect(try StreamTarget(parsing: "rtmp://127.0.0.1/live/k").muxerOptions["pes_payload_size"] == nil)
    }

    @Test func rtmpsVerifiesCertificatesUnlessToldNot() throws {
        var target = try StreamTarget(parsing: "rtmps://127.0.0.1:4443/live/key")
        var options = target.protocolOptions(sendTimeout: 3)
        #expect(options["tls_verify"] == "1" && options["ca_file"] == nil && options["tcp_nodelay"] == "1")
        target.tls = .init(verify: true, caFile: "/etc/ca.pem")
        options = target.protocolOptions(sendTimeout: 3)
        #expect(options["ca_file"] == "/etc/ca.pem")
        target.tls.verify = false
        #expect(target.protocolOptions(sendTimeout: 3)["tls_verify"] == "0")
        #expect(try StreamTarget(parsing: "rtmp://127.0.0.1/live/k").protocolOptions(sendTimeout: 3)["tls_verify"] == nil)
    }

    @Test func rtspsPublishesInsideTLSSaysItsCertificateIsUncheckedAndMasksThePassword() throws {
        let target = try StreamTarget(parsing: "rtsps://cam:s3cret-pw@127.0.0.1:8322/live")
        #expect(target.transport == .rtsps && target.transport.isRTSP && target.transport.isTCP)
        #expect(target.muxer == "rtsp" && target.muxerOptions["rtsp_transport"] == "tcp")
        #expect(target.uncheckedCertificateReason != nil)
        #expect(try StreamTarget(parsing: "rtmps://127.0.0.1/live/k").uncheckedCertificateReason == nil)
        #expect(target.displayName == "rtsps://cam:***@127.0.0.1:8322/live")
        #expect(try StreamTarget(parsing: "rtsp://cam:pw@127.0.0.1:8554/live").displayName == "rtsp://cam:***@127.0.0.1:8554/live")
        #expect(try StreamTarget(parsing: "rtsp://cam@127.0.0.1:8554/live").displayName == "rtsp://cam@127.0.0.1:8554/live")
    }
}
#endif
