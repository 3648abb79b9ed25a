import OnAirCore
import OnAirServing

/// libFuzzer entry point: reads arbitrary bytes as a WS-Discovery datagram with
/// `WSDiscoveryRequest`, and when it is a request, matches it against a device and writes the
/// answer, which must read back as a SOAP envelope answering the request's MessageID. Errors
/// are fine; a trap is the bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let request = WSDiscoveryRequest(datagram: bytes) else { return 0 }
    let device = WSDiscoveryDevice(
        endpoint: "urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", scopes: ["onvif://www.onvif.org/Profile/Streaming"], instance: 1)
    _ = device.matches(request)
    let answer = device.answer(to: request, xaddrs: ["http://192.0.2.1/onvif/device_service"], messageID: "urn:uuid:a", number: 1)
    guard let envelope = try? SOAPEnvelope(Array(answer.utf8)) else { fatalError("the answer does not read back") }
    let relatesTo: String
    switch request {
    case .probe(let id, _, _, _), .resolve(let id, _): relatesTo = id
    }
    if envelope.header?.childValue("RelatesTo") != relatesTo.trimmingCharacters(in: .whitespaces) {
        fatalError("the answer relates to another message")
    }
    return 0
}
