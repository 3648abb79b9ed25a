#if os(Linux)
import OnAirServing
import Testing

/// `RTSPRequestRules` on request fields built here, as `RTSPRequest.head` gives them: 413 for a line
/// past the line limit or a request past the header limit, 400 for a missing or malformed CSeq,
/// 404 for a DESCRIBE of a path not served exactly, and the order of those checks.
/// (ServeRTSPTests sends the same requests to `onair serve`.)
@Suite struct RTSPRequestRulesTests {
    static let rules = RTSPRequestRules(paths: ["/live", "/sub"], headerLimit: 1000)

    static func request(
        _ method: String = "DESCRIBE", path: String? = "/live", cseq: String? = "1", headers: [(String, String)] = [],
        received: UInt64? = nil, body: UInt64 = 0
    ) -> RTSPRequestHead {
        let uri = "rtsp://127.0.0.1:8554" + (path ?? "")
        let lines = (cseq.map { [("CSeq", $0)] } ?? []) + headers
        return RTSPRequestHead(
            method: method, uri: Array(uri.utf8), path: path.map { Array($0.utf8) },
            headers: lines.map { RTSPRequestHead.Header(name: Array($0.0.utf8), value: Array($0.1.utf8)) },
            received: received, bodySize: body)
    }

    @Test func aWellFormedRequestOfAServedPathGoesOn() {
        #expect(Self.rules.status(of: Self.request()) == 200)
        #expect(Self.rules.status(of: Self.request(path: "/sub", cseq: "4294967295")) == 200)
        #expect(Self.rules.status(of: Self.request("OPTIONS", path: nil)) == 200)
    }

    @Test func aMissingOrMalformedCSeqIs400() {
        for cseq in [nil, "", "banana", "-1", "+1", "1.0", " 1", "1 ", "12345678901", "１"] {
            #expect(Self.rules.status(of: Self.request(cseq: cseq)) == 400, "\(cseq ?? "none")")
        }
        // The first CSeq decides, and its name is matched in any case.
        #expect(Self.rules.status(of: Self.request(cseq: "x", headers: [("CSeq", "2")])) == 400)
        #expect(Self.rules.status(of: Self.request(cseq: nil, headers: [("cseq", "2")])) == 200)
        // No fields at all (no request): 400.
        #expect(Self.rules.status(of: RTSPRequestHead(method: "", uri: [], path: nil, headers: [])) == 400)
    }

    @Test func aLineAtTheLimitIsFineAndOneByteLongerIs413() {
        // "Accept: " is 8 bytes: a value of 3992 makes a line of exactly 4000.
        let atLimit = String(repeating: "a", count: RTSPRequestRules.lineLimit - 8)
        #expect(Self.rules.status(of: Self.request(headers: [("Accept", atLimit)])) == 200)
        #expect(Self.rules.status(of: Self.request(headers: [("Accept", atLimit + "a")])) == 413)
        let longPath = "/" + String(repeating: "p", count: RTSPRequestRules.lineLimit)
        #expect(Self.rules.status(of: Self.request(path: longPath)) == 413)
    }

    @Test func aRequestPastTheHeaderLimitIs413ItsBodyCountedApart() {
        #expect(Self.rules.status(of: Self.request(received: 1000)) == 200)
        #expect(Self.rules.status(of: Self.request(received: 1001)) == 413)
        #expect(Self.rules.status(of: Self.request("SET_PARAMETER", received: 1500, body: 500)) == 200)
        #expect(Self.rules.status(of: Self.request("SET_PARAMETER", received: 1501, body: 500)) == 413)
        // Unknown size: only the lines are judged.
        #expect(Self.rules.status(of: Self.request(received: nil)) == 200)
        #expect(Self.rules.status(of: Self.request(received: .max, body: .max)) == 200)
    }

    @Test func aDescribeOfAPathNotServedExactlyIs404() {
        for path in ["/other", "/live/x", "/liv", "/LIVE", "", "/live "] {
            #expect(Self.rules.status(of: Self.request(path: path)) == 404, "\(path)")
        }
        #expect(Self.rules.status(of: Self.request(path: nil)) == 404)
        // Other methods are not judged by path here (the server finds their track or answers 404).
        #expect(Self.rules.status(of: Self.request("SETUP", path: "/other")) == 200)
    }

    @Test func sizeIsJudgedBeforeCSeqAndCSeqBeforeThePath() {
        let long = String(repeating: "a", count: RTSPRequestRules.lineLimit)
        #expect(Self.rules.status(of: Self.request(path: "/other", cseq: "x", headers: [("Accept", long)])) == 413)
        #expect(Self.rules.status(of: Self.request(path: "/other", cseq: "x")) == 400)
    }
}
#endif
