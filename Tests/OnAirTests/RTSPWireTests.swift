#if os(Linux)
import OnAirServing
import Testing

/// The RTSP wire layer on bytes built here (no sockets): `RTSPMessageReader` on requests and
/// interleaved frames in every split, each bound refused at the byte that passes it, the rules
/// applied; `RTSPTransportSpec` on real clients' Transport headers; `RTSPRange`; `RTSPResponse`'s bytes.
@Suite struct RTSPWireTests {
    /// A DESCRIBE, an interleaved RTCP frame, a SETUP, a SET_PARAMETER with a body and a PLAY.
    static let session =
        Array(
            ("OPTIONS rtsp://127.0.0.1:8554/live RTSP/1.0\r\nCSeq: 1\r\nUser-Agent: test\r\n\r\n"
                + "DESCRIBE rtsp://127.0.0.1:8554/live RTSP/1.0\r\nCSeq: 2\r\nAccept: application/sdp\r\n\r\n").utf8)
        + [0x24, 1, 0, 3, 0x80, 0xC9, 0x00]
        + Array(
            ("SETUP rtsp://127.0.0.1:8554/live/track0 RTSP/1.0\nCSeq: 3\nTransport: RTP/AVP/TCP;unicast;interleaved=0-1\n\n"
                + "\r\nSET_PARAMETER rtsp://127.0.0.1:8554/live RTSP/1.0\r\nCSeq: 4\r\nContent-Length: 5\r\n\r\nx: 1\n"
                + "PLAY rtsp://127.0.0.1:8554/live RTSP/1.0\r\nCSeq: 5\r\nRange: npt=now-\r\n\r\n").utf8)

    /// The items `chunks` give fed one after the other into `reader`, checking after each that the
    /// reader holds no more than its bound and that nothing follows a refusal.
    static func items(_ chunks: [ArraySlice<UInt8>], reader: RTSPMessageReader = RTSPMessageReader()) -> [RTSPMessageReader.Item] {
        var reader = reader
        var items: [RTSPMessageReader.Item] = []
        for chunk in chunks {
            reader.append(Array(chunk))
            while let item = reader.next() { items.append(item) }
            #expect(reader.buffered <= reader.bufferLimit)
        }
        if let refusal = items.firstIndex(where: { if case .refused = $0 { true } else { false } }) {
            #expect(refusal == items.count - 1)
            #expect(reader.buffered == 0)
        }
        return items
    }

    /// The number of bytes of `bytes`, fed one at a time, after which the reader refuses and the
    /// status it refuses with; empty when it does not.
    static func refusal(_ bytes: [UInt8], reader: RTSPMessageReader = RTSPMessageReader()) -> [Int] {
        var reader = reader
        for (index, byte) in bytes.enumerated() {
            reader.append([byte])
            while let item = reader.next() {
                if case .refused(let status, _) = item { return [index + 1, status] }
            }
            #expect(reader.buffered <= reader.bufferLimit)
        }
        return []
    }

    @Test func aSessionReadsTheSameInEverySplit() throws {
        let whole = Self.items([Self.session[...]])
        #expect(whole.count == 6)
        guard case .request(let options) = whole[0], case .request(let describe) = whole[1], case .request(let setup) = whole[3],
            case .request(let parameter) = whole[4], case .request(let play) = whole[5]
        else {
            Issue.record("items \(whole)")
            return
        }
        #expect(options.method == "OPTIONS" && options.cseq == "1" && options.header("user-agent") == "test")
        #expect(describe.uri == "rtsp://127.0.0.1:8554/live" && describe.version == "RTSP/1.0" && describe.path == "/live")
        #expect(whole[2] == .interleaved(channel: 1, payload: [0x80, 0xC9, 0x00]))
        #expect(setup.header("TRANSPORT") == "RTP/AVP/TCP;unicast;interleaved=0-1" && setup.path == "/live/track0")
        #expect(parameter.body == Array("x: 1\n".utf8) && parameter.cseq == "4")
        #expect(play.header("Range") == "npt=now-")
        #expect(options.received == 74)
        for split in 0...Self.session.count {
            #expect(Self.items([Self.session[..<split], Self.session[split...]]) == whole, "split at \(split)")
        }
        #expect(Self.items(Self.session.map { [$0][...] }) == whole)
    }

    @Test func crlfAndLFReadAlike() {
        let crlf = Self.items([Array("DESCRIBE /live RTSP/1.0\r\nCSeq: 7\r\nA: b\r\n\r\n".utf8)[...]])
        let lf = Self.items([Array("DESCRIBE /live RTSP/1.0\nCSeq: 7\nA: b\n\n".utf8)[...]])
        guard case .request(var request) = crlf.first, crlf.count == 1, lf.count == 1 else {
            Issue.record("items \(crlf) \(lf)")
            return
        }
        #expect(request.received == 42)
        request.received = 38
        #expect(lf == [.request(request)])
    }

    @Test func headerFieldsAreFoundInAnyCase() throws {
        let bytes = Array("GET_PARAMETER * RTSP/1.0\r\nCSeq: 9\r\nX-Note:  one \t\r\nx-note:two\r\nSession: abc\r\n\r\n".utf8)
        guard case .request(let request) = Self.items([bytes[...]]).first else {
            Issue.record("no request")
            return
        }
        #expect(request.header("x-NOTE") == "one" && request.headers("X-Note") == ["one", "two"] && request.headers("none") == [])
        #expect(request.header("session") == "abc" && request.cseq == "9" && request.path == nil)
    }

    @Test func thePathIsTheURIsAbsolutePathWithoutItsQuery() {
        let paths: [(String, String?)] = [
            ("rtsp://127.0.0.1:8554/live", "/live"), ("rtsp://h/live/track0?x=1", "/live/track0"), ("/sub?a", "/sub"),
            ("rtsp://h:8554", nil), ("rtsp://h:8554?x", nil), ("*", nil), ("live", nil), ("rtsp://h/a%20b", "/a%20b"),
            ("RTSPS://h/", "/"),
        ]
        for (uri, path) in paths { #expect(RTSPRequest.path(of: uri) == path, "\(uri)") }
    }

    @Test func theRulesRefuseWhatTheyRefuse() {
        let rules = RTSPRequestRules(paths: ["/live"], headerLimit: 16_384)
        let reader = RTSPMessageReader(rules: rules)
        let cases: [(String, RTSPMessageReader.Item?)] = [
            ("DESCRIBE rtsp://h/live RTSP/1.0\r\n\r\n", .refused(status: 400, reason: "Bad Request")),
            ("DESCRIBE rtsp://h/other RTSP/1.0\r\nCSeq: 1\r\n\r\n", .refused(status: 404, reason: "Not Found")),
            ("DESCRIBE rtsp://h/live/x RTSP/1.0\r\nCSeq: 1\r\n\r\n", .refused(status: 404, reason: "Not Found")),
            ("OPTIONS rtsp://h/other RTSP/1.0\r\nCSeq: 1\r\n\r\n", nil),
        ]
        for (text, expected) in cases {
            let items = Self.items([Array((text + "OPTIONS * RTSP/1.0\r\nCSeq: 2\r\n\r\n").utf8)[...]], reader: reader)
            if let expected {
                #expect(items == [expected], "\(text)")
            } else {
                #expect(items.count == 2, "\(text)")
            }
        }
    }

    @Test func aLongLineIsRefusedAtTheByteThatPassesTheLimit() {
        let requestLine = Array("DESCRIBE /".utf8) + [UInt8](repeating: 0x61, count: 10_000)
        #expect(Self.refusal(requestLine) == [4001, 413])
        // A line of exactly the limit passes, CR included.
        let exact = Array("DESCRIBE /".utf8) + [UInt8](repeating: 0x61, count: 4000 - 19) + Array(" RTSP/1.0\r\nCSeq: 1\r\n\r\n".utf8)
        #expect(Self.refusal(exact).isEmpty && Self.items([exact[...]]).count == 1)
        let prefix = Array("OPTIONS * RTSP/1.0\r\n".utf8)
        let header = prefix + Array("X: ".utf8) + [UInt8](repeating: 0x62, count: 10_000)
        #expect(Self.refusal(header) == [prefix.count + 4001, 413])
    }

    @Test func aLongHeadIsRefusedAtTheByteThatPassesTheLimit() {
        let line = Array("X-Pad: ".utf8) + [UInt8](repeating: 0x63, count: 991) + [0x0D, 0x0A]
        let bytes = Array("OPTIONS * RTSP/1.0\r\n".utf8) + Array([[UInt8]](repeating: line, count: 20).joined())
        #expect(Self.refusal(bytes) == [16_385, 413])
        let small = RTSPMessageReader(headLimit: 100)
        #expect(Self.refusal(Array("OPTIONS * RTSP/1.0\r\nA: 1\r\n".utf8) + line, reader: small) == [101, 413])
    }

    @Test func tooManyFieldsAreRefusedAtTheLastLine() {
        let fields = (1...65).map { "F\($0): v\r\n" }
        let bytes = Array(("OPTIONS * RTSP/1.0\r\n" + fields.joined() + "\r\n").utf8)
        let at = Array(("OPTIONS * RTSP/1.0\r\n" + fields.joined()).utf8).count
        #expect(Self.refusal(bytes) == [at, 413])
        let sixtyFour = Array(("OPTIONS * RTSP/1.0\r\n" + fields.dropLast().joined() + "\r\n").utf8)
        #expect(Self.refusal(sixtyFour).isEmpty && Self.items([sixtyFour[...]]).count == 1)
    }

    @Test func theBodyIsBoundedByItsContentLength() {
        let head = "SET_PARAMETER * RTSP/1.0\r\nCSeq: 1\r\n"
        let largest = Array((head + "Content-Length: 16384\r\n\r\n").utf8) + [UInt8](repeating: 0x20, count: 16_384)
        guard case .request(let request) = Self.items([largest[...]]).first else {
            Issue.record("no request")
            return
        }
        #expect(request.body.count == 16_384 && request.received == largest.count)
        let tooLarge = Array((head + "Content-Length: 16385\r\n\r\n").utf8)
        #expect(Self.refusal(tooLarge + [0x20]) == [tooLarge.count, 413])
        #expect(Self.refusal(Array((head + "Content-Length: 99999999999999999999\r\n\r\n").utf8)).last == 413)
        for length in ["12a", "-1", "+1", "", "0x10", "1 2"] {
            #expect(Self.refusal(Array((head + "Content-Length: \(length)\r\n\r\n").utf8)).last == 400, "\(length)")
        }
        #expect(Self.refusal(Array((head + "Content-Length: 1\r\ncontent-length: 2\r\n\r\n").utf8)).last == 400)
        let same = Array((head + "Content-Length: 1\r\ncontent-length: 01\r\n\r\nz").utf8)
        #expect(Self.items([same[...]]).count == 1)
    }

    @Test func interleavedFramesAreBounded() {
        #expect(Self.refusal([0x24, 0, 0x40, 0x01, 0]) == [4, 413])
        let largest = [0x24, 0, 0x40, 0x00] + [UInt8](repeating: 7, count: 16_384)
        #expect(Self.items([largest[...]]) == [.interleaved(channel: 0, payload: [UInt8](repeating: 7, count: 16_384))])
        #expect(Self.items([[0x24, 9, 0, 0][...]]) == [.interleaved(channel: 9, payload: [])])
    }

    @Test func malformedRequestsAre400() {
        let lines = [
            "GET / HTTP/1.1", "DESCRIBE  /live RTSP/1.0", "DESCRIBE /live RTSP/2.0", "DESCRIBE /live", "DESCRIBE /live RTSP/1.0 x",
            "DESC(RIBE /live RTSP/1.0", "DESCRIBE /li\u{7}ve RTSP/1.0", "DESCRIBE /live RTSP/1.10", " DESCRIBE /live RTSP/1.0",
        ]
        for line in lines {
            #expect(Self.refusal(Array((line + "\r\nCSeq: 1\r\n\r\n").utf8)).last == 400, "\(line)")
        }
        for field in ["NoColon", ": empty name", "Bad Name: x", " folded", "\tfolded", "A: b\rc", "A: \u{0}"] {
            #expect(Self.refusal(Array(("OPTIONS * RTSP/1.0\r\n" + field + "\r\n\r\n").utf8)).last == 400, "\(field)")
        }
        #expect(Self.refusal(Array("\rOPTIONS * RTSP/1.0\r\n\r\n".utf8)) == [2, 400])
    }

    @Test func emptyLinesBeforeARequestAreSkippedUpToTheLimit() {
        let request = Array("OPTIONS * RTSP/1.0\r\nCSeq: 1\r\n\r\n".utf8)
        let sixteen = Array(String(repeating: "\r\n", count: 8).utf8) + Array(String(repeating: "\n", count: 8).utf8) + request
        #expect(Self.items([sixteen[...]]).count == 1)
        #expect(Self.refusal(Array(String(repeating: "\n", count: 17).utf8)) == [17, 400])
    }

    @Test func nothingIsReadAfterARefusal() {
        var reader = RTSPMessageReader()
        reader.append(Array("BAD\r\n".utf8))
        #expect(reader.next() == .refused(status: 400, reason: "Bad Request"))
        reader.append(Array("OPTIONS * RTSP/1.0\r\nCSeq: 1\r\n\r\n".utf8))
        #expect(reader.next() == nil && reader.isClosed && reader.buffered == 0)
    }

    @Test func theHeadIsWhatTheRulesJudge() {
        let bytes = Array("DESCRIBE rtsp://h/live?x RTSP/1.0\r\nCSeq: 3\r\nContent-Length: 2\r\n\r\nab".utf8)
        guard case .request(let request) = Self.items([bytes[...]]).first else {
            Issue.record("no request")
            return
        }
        let head = request.head
        #expect(head.method == "DESCRIBE" && head.uri == Array("rtsp://h/live?x".utf8) && head.path == Array("/live".utf8))
        #expect(head.received == UInt64(bytes.count) && head.bodySize == 2 && head.headers.count == 2)
        #expect(head.headers[0] == RTSPRequestHead.Header(name: Array("CSeq".utf8), value: Array("3".utf8)))
    }

    @Test func theTransportChosenIsTheFirstServable() {
        let cases: [(String, RTSPTransportSpec?)] = [
            // ffmpeg (-rtsp_transport udp, then tcp)
            ("RTP/AVP/UDP;unicast;client_port=5000-5001", .udp(rtp: 5000, rtcp: 5001)),
            ("RTP/AVP/TCP;unicast;interleaved=0-1", .tcp(channels: (0, 1))),
            // GStreamer's rtspsrc: a list, with quoted modes
            (
                "RTP/AVP;unicast;client_port=41234-41235;mode=\"PLAY\", RTP/AVP/TCP;unicast;interleaved=0-1;mode=\"PLAY\"",
                .udp(rtp: 41234, rtcp: 41235)
            ),
            ("RTP/AVP;multicast;mode=\"PLAY\", RTP/AVP;unicast;client_port=39064-39065;mode=\"PLAY\"", .udp(rtp: 39064, rtcp: 39065)),
            ("RTP/AVP/TCP;unicast;interleaved=2-3;mode=\"PLAY\"", .tcp(channels: (2, 3))),
            // VLC (live555)
            ("RTP/AVP;unicast;client_port=65406-65407", .udp(rtp: 65406, rtcp: 65407)),
            ("RTP/AVP/TCP;unicast;interleaved=4-5", .tcp(channels: (4, 5))),
            // one port, no channels, ssrc and destination ignored, case
            ("RTP/AVP;unicast;client_port=5000", .udp(rtp: 5000, rtcp: 5001)),
            ("RTP/AVP/TCP;unicast", .tcp(channels: nil)),
            ("rtp/avp/tcp;interleaved=7", .tcp(channels: (7, 8))),
            ("RTP/AVP;unicast;destination=10.0.0.9;client_port=6000-6001;ssrc=1234ABCD", .udp(rtp: 6000, rtcp: 6001)),
            // not served
            ("RTP/AVP;multicast;client_port=5000-5001", nil), ("RTP/SAVP;unicast;client_port=5000-5001", nil),
            ("RTP/AVPF;unicast;client_port=5000-5001", nil), ("RTP/AVP;unicast;client_port=5000-5001;mode=record", nil),
            ("RTP/AVP/TCP;unicast;interleaved=0-1;mode=\"RECORD\"", nil), ("RTP/AVP;unicast", nil), ("", nil), ("garbage", nil),
            ("RTP/AVP;unicast;client_port=0-1", nil), ("RTP/AVP;unicast;client_port=70000-70001", nil),
            ("RTP/AVP;unicast;client_port=65535", nil), ("RTP/AVP/TCP;interleaved=255", nil), ("RTP/AVP/TCP;interleaved=1-256", nil),
            ("RTP/AVP;unicast;client_port=a-b", nil),
            (Array(repeating: "RTP/SAVP;unicast;client_port=5000-5001", count: 8).joined(separator: ",") + ",RTP/AVP/TCP", nil),
            (Array(repeating: "RTP/SAVP", count: 7).joined(separator: ",") + ",RTP/AVP/TCP", .tcp(channels: nil)),
            ("RTP/AVP/TCP;" + String(repeating: "x", count: 257), nil),
            ("RTP/AVP/TCP" + String(repeating: ";x", count: 17), nil),
        ]
        for (header, expected) in cases { #expect(RTSPTransportSpec(header: header) == expected, "\(header)") }
    }

    @Test func transportAnswers() {
        #expect(
            RTSPTransportSpec.udpAnswer(client: (5000, 5001), server: (6970, 6971), ssrc: 0xAB)
                == "RTP/AVP;unicast;client_port=5000-5001;server_port=6970-6971;ssrc=000000AB")
        #expect(RTSPTransportSpec.tcpAnswer(channels: (0, 1), ssrc: 0xDEAD_BEEF) == "RTP/AVP/TCP;unicast;interleaved=0-1;ssrc=DEADBEEF")
    }

    @Test func rangesParseAndLiveIsAnsweredAsNow() {
        let cases: [(String?, RTSPRange?)] = [
            (nil, nil), ("npt=now-", RTSPRange()), ("npt=0.000-", RTSPRange(start: 0)), ("npt=0-", RTSPRange(start: 0)),
            ("NPT=1:02:03.5-", RTSPRange(start: 3723.5)), ("npt=10-20.5", RTSPRange(start: 10, end: 20.5)),
            ("npt=-5", RTSPRange(end: 5)), ("npt=now-;time=19970123T153600Z", RTSPRange()), ("npt=-", nil), ("npt=x-", nil),
            ("clock=19961108T142300Z-", nil), ("smpte=0:10:20-", nil), ("npt=1:60:00-", nil), ("npt=.5-", nil), ("npt=1.2.3-", nil),
            ("npt=0-\r\n", nil), ("garbage", nil), ("npt=" + String(repeating: "1", count: 200) + "-", nil),
        ]
        for (header, expected) in cases { #expect(RTSPRange(header: header) == expected, "\(header ?? "none")") }
        #expect(RTSPRange.live == "npt=now-")
        let info = RTSPRange.rtpInfo([
            .init(url: "rtsp://h/live/track0", seq: 1, rtptime: 0), .init(url: "rtsp://h/live/track1", seq: 65535, rtptime: 4_294_967_295),
        ])
        #expect(info == "url=rtsp://h/live/track0;seq=1;rtptime=0,url=rtsp://h/live/track1;seq=65535;rtptime=4294967295")
    }

    @Test func responsesAreWrittenExactly() {
        var response = RTSPResponse(status: 200)
        response.add("CSeq", "2")
        response.add("Content-Type", "application/sdp")
        response.body = Array("v=0\r\n".utf8)
        #expect(
            response.bytes == Array("RTSP/1.0 200 OK\r\nCSeq: 2\r\nContent-Type: application/sdp\r\nContent-Length: 5\r\n\r\nv=0\r\n".utf8))
        let refused = RTSPResponse(status: 461, fields: [RTSPHeaderField("CSeq", "3")])
        #expect(refused.bytes == Array("RTSP/1.0 461 Unsupported Transport\r\nCSeq: 3\r\n\r\n".utf8))
        let hostile = RTSPResponse(
            status: 400, reason: "Bad\r\nX: y",
            fields: [
                RTSPHeaderField("CSeq", "1\r\nSet-Cookie: x"), RTSPHeaderField("Bad Name", "v"), RTSPHeaderField("Content-Length", "9"),
                RTSPHeaderField("Session", "abc"),
            ])
        #expect(hostile.bytes == Array("RTSP/1.0 400 Bad Request\r\nSession: abc\r\n\r\n".utf8))
        let phrases = [200, 400, 401, 403, 404, 405, 406, 413, 451, 453, 454, 455, 459, 461, 500, 501, 503, 505].map(
            RTSPResponse.reasonPhrase)
        #expect(!phrases.contains("Unknown") && Set(phrases).count == 18 && RTSPResponse.reasonPhrase(for: 299) == "Unknown")
    }
}
#endif
