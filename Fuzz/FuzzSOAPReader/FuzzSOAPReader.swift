import OnAirCore
import OnAirServing

/// libFuzzer entry point: reads arbitrary bytes as a SOAP envelope with `SOAPReader`'s limits
/// made small (so the fuzzer reaches them) and checks what it accepts: no deeper and no more
/// elements than the limits, and no element with more attributes than allowed. Errors are fine;
/// a trap is the bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var limits = SOAPReader.Limits()
    limits.maximumDepth = 8
    limits.maximumElements = 64
    limits.maximumAttributes = 4
    let reader = SOAPReader(limits: limits)
    if let root = try? reader.read(bytes) {
        var count = 0
        func walk(_ element: SOAPElement, depth: Int) {
            count += 1
            if depth > limits.maximumDepth { fatalError("deeper than the limit") }
            if element.attributes.count > limits.maximumAttributes { fatalError("more attributes than the limit") }
            for child in element.children { walk(child, depth: depth + 1) }
        }
        walk(root, depth: 1)
        if count > limits.maximumElements { fatalError("more elements than the limit") }
    }
    _ = try? SOAPEnvelope(bytes, reader: reader)
    if let envelope = try? SOAPEnvelope(bytes) { _ = WSUsernameToken(header: envelope.header) }
    return 0
}
