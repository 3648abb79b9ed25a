import OnAirGStreamer

/// libFuzzer entry point: reads arbitrary bytes as a WebRTC offer with `WebRTCOffer` and, when it is
/// accepted, checks the bounds it promises: at most `maximumSections` sections, payload types 0…127,
/// positive clock rates and 1…8 channels.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let offer = try? WebRTCOffer(parsing: text) else { return 0 }
    guard !offer.sections.isEmpty, offer.sections.count <= WebRTCOffer.maximumSections else { fatalError("section count") }
    for section in offer.sections {
        for codec in section.codecs {
            guard (0...127).contains(codec.payloadType) else { fatalError("payload type \(codec.payloadType)") }
            guard codec.clockRate > 0, (1...8).contains(codec.channels) else { fatalError("rate or channels") }
            guard codec.parameters.count <= 32 else { fatalError("too many parameters") }
        }
    }
    return 0
}
