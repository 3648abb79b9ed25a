#if os(Linux)
/// What every RTSP request must be before `RTSPLiveServer` answers it, judged on its fields
/// (`RTSPRequestHead`, untrusted bytes) once `RTSPMessageReader` has read it whole. In this order:
///
/// - 413 when it does not fit: the URI or any header line (`name: value`) longer than
///   `lineLimit`, or the bytes taken for it (request line, headers and body) more than
///   `headerLimit` plus the body's length.
/// - 400 when its first CSeq is missing or not a plain decimal number of at most `cseqDigits`
///   digits.
/// - 404 for a DESCRIBE of a path that is not served exactly ("/live/x" does not find "/live").
package struct RTSPRequestRules: Sendable {
    /// The longest request line or header line accepted (bytes).
    package static let lineLimit = 4000
    /// The most digits a CSeq has.
    package static let cseqDigits = 10

    /// The paths served ("/live", "/sub"), each matched exactly.
    package let paths: Set<[UInt8]>
    /// The largest request line and headers accepted, together (bytes).
    package let headerLimit: UInt64

    /// Rules for a server of `paths` with request line and headers up to `headerLimit` bytes.
    package init(paths: [String], headerLimit: Int) {
        self.paths = Set(paths.map { Array($0.utf8) })
        self.headerLimit = UInt64(max(0, headerLimit))
    }

    /// 200 lets `request` through; anything else is the RTSP status code it is refused with.
    package func status(of request: RTSPRequestHead) -> Int {
        guard fits(request) else { return 413 }
        guard Self.hasValidCSeq(request) else { return 400 }
        if request.method == "DESCRIBE", !(request.path.map(paths.contains) ?? false) { return 404 }
        return 200
    }

    /// Whether each line is under `lineLimit` and the whole under `headerLimit` plus the body.
    func fits(_ request: RTSPRequestHead) -> Bool {
        guard request.uri.count <= Self.lineLimit else { return false }
        for header in request.headers where header.name.count + 2 + header.value.count > Self.lineLimit { return false }
        guard let received = request.received else { return true }
        let (allowed, overflow) = headerLimit.addingReportingOverflow(request.bodySize)
        return overflow || received <= allowed
    }

    /// Whether the first CSeq is 1 to `cseqDigits` ASCII digits.
    static func hasValidCSeq(_ request: RTSPRequestHead) -> Bool {
        guard let cseq = request.headers.first(where: { isCSeq($0.name) }) else { return false }
        return (1...cseqDigits).contains(cseq.value.count) && cseq.value.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Whether a header name is CSeq's (in any case).
    static func isCSeq(_ name: [UInt8]) -> Bool {
        name.count == 4 && zip(name, "cseq".utf8).allSatisfy { $0 | 0x20 == $1 }
    }
}
#endif
