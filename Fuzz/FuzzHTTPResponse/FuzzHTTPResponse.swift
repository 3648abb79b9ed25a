import OnAirHTTP

/// libFuzzer entry point: reads arbitrary bytes as the head of an HTTP response with
/// `HTTPResponseHead` (what the WHIP output reads from a server) and, when it is accepted, checks the
/// bounds it promises: a status of 100…599, a body offset inside the bytes and within the head limit,
/// and a Content-Length that is absent, refused or not negative.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let head = try? HTTPResponseHead.parse(bytes) else { return 0 }
    guard (100...599).contains(head.status) else { fatalError("status \(head.status)") }
    guard head.bodyOffset <= bytes.count, head.bodyOffset <= HTTPResponseHead.maximumBytes + 4 else { fatalError("body offset") }
    if let length = try? head.contentLength(), length < 0 { fatalError("negative length") }
    _ = head.value("Location")
    return 0
}
