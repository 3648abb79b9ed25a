import OnAirServing

/// libFuzzer entry point: reads arbitrary bytes as an RTSP request (16 bytes of sizes, then a
/// request line and `name: value` lines separated by line feeds), judges it with
/// `RTSPRequestRules` and checks the verdict against the fields: one of 200, 400, 404 and 413; 413
/// exactly when a line or the whole is too long; a request let through has a CSeq of digits and,
/// for a DESCRIBE, a served path.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard bytes.count >= 16 else { return 0 }
    let number = { (range: Range<Int>) in bytes[range].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
    let received = bytes[0] == 0xFF ? nil : number(0..<8) % 65_536
    let body = number(8..<16) % 65_536
    let lines = bytes[16...].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Array($0) }
    let requestLine = lines.first ?? []
    let parts = requestLine.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false).map { Array($0) }
    let uri = parts.count > 1 ? parts[1] : []
    let path = uri.firstIndex(of: UInt8(ascii: "/")).map { Array(uri[$0...]) }
    let headers = lines.dropFirst().compactMap { line -> RTSPRequestHead.Header? in
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        return RTSPRequestHead.Header(name: Array(line[..<colon]), value: Array(line[(colon + 1)...].drop { $0 == 0x20 }))
    }
    let request = RTSPRequestHead(
        method: String(decoding: parts.first ?? [], as: UTF8.self), uri: uri, path: path, headers: headers,
        received: received, bodySize: body)
    let rules = RTSPRequestRules(paths: ["/live", "/sub"], headerLimit: 1024)
    let status = rules.status(of: request)
    guard [200, 400, 404, 413].contains(status) else { fatalError("status \(status)") }
    let tooLong =
        uri.count > RTSPRequestRules.lineLimit
        || headers.contains { $0.name.count + 2 + $0.value.count > RTSPRequestRules.lineLimit }
        || received.map { $0 > 1024 + body } ?? false
    if tooLong != (status == 413) { fatalError("413 is \(status == 413), the request too long \(tooLong)") }
    guard status == 200 else { return 0 }
    let cseq = headers.first { String(decoding: $0.name, as: UTF8.self).lowercased() == "cseq" }?.value ?? []
    if cseq.isEmpty || cseq.count > RTSPRequestRules.cseqDigits || !cseq.allSatisfy({ (48...57).contains($0) }) {
        fatalError("let through with CSeq \(cseq)")
    }
    if request.method == "DESCRIBE", path != Array("/live".utf8), path != Array("/sub".utf8) { fatalError("an unserved path") }
    return 0
}
