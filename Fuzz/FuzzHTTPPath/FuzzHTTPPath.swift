import OnAirHTTP

/// libFuzzer entry point: checks an arbitrary decoded request path with `HTTPPath` and, when it is
/// accepted, that no segment is `.`, `..` or empty, none holds a slash, backslash or control byte,
/// and joining the segments gives the path back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let path = HTTPPath(text) else { return 0 }
    guard path.segments.count <= HTTPPath.maximumSegments else { fatalError("too many segments") }
    for segment in path.segments {
        if segment.isEmpty || segment == "." || segment == ".." { fatalError("accepted segment '\(segment)'") }
        if segment.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }) {
            fatalError("accepted a segment with a forbidden byte")
        }
    }
    guard "/" + path.segments.joined(separator: "/") == text else { fatalError("segments do not join back to the path") }
    return 0
}
