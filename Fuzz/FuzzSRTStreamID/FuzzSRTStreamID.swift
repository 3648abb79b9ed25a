import OnAirCore
import OnAirServing

/// libFuzzer entry point: reads an arbitrary SRT stream id (as a caller sends it) with
/// `SRTStreamID.resource` and checks that a resource, when found, is non-empty, part of the id and
/// no longer than the id, and that ids over the length limit name none.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let resource = SRTStreamID.resource(text) else { return 0 }
    if text.utf8.count > SRTStreamID.maximumLength { fatalError("an id over the limit named \(resource.utf8.count) bytes") }
    if resource.isEmpty { fatalError("an empty resource") }
    if resource.utf8.count > text.utf8.count || !text.contains(resource) { fatalError("a resource not in the id") }
    return 0
}
