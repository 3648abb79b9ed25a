import OnAirServing

/// libFuzzer entry point: reads arbitrary bytes as what an RTSP client sends (the first byte
/// chooses how the rest is split into reads: sizes from a pattern seeded by it), feeds them to an
/// `RTSPMessageReader` in those reads, one at a time and all at once, and checks that no more than
/// `bufferLimit` bytes are held after each read's items are taken, that a refusal is the last item
/// and is one of 400, 404 and 413, that each request's parts are within the bounds, and that the
/// three splits give the same items.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let seed = bytes.first else { return 0 }
    let input = Array(bytes.dropFirst())
    let rules = RTSPRequestRules(paths: ["/live", "/sub"], headerLimit: 512)
    let makeReader = {
        RTSPMessageReader(
            rules: seed & 1 == 0 ? rules : nil, lineLimit: 100, headLimit: 512, bodyLimit: 300, fieldLimit: 8, interleavedLimit: 200)
    }
    var state = UInt32(seed) | 1
    var sizes: [Int] = []
    var total = 0
    while total < input.count {
        state = state &* 1_103_515_245 &+ 12_345
        let next = Int(state >> 16) % (seed & 2 == 0 ? 7 : 700) + 1
        sizes.append(next)
        total += next
    }
    let split = read(input, sizes: sizes, reader: makeReader())
    let single = read(input, sizes: Array(repeating: 1, count: input.count), reader: makeReader())
    let whole = read(input, sizes: [input.count], reader: makeReader())
    if split != whole || single != whole { fatalError("splits differ: \(split) \(single) \(whole)") }
    return 0
}

/// The items `input` gives read in pieces of `sizes`, checking the reader's bounds after each piece.
func read(_ input: [UInt8], sizes: [Int], reader: RTSPMessageReader) -> [RTSPMessageReader.Item] {
    var reader = reader
    var items: [RTSPMessageReader.Item] = []
    var offset = 0
    for size in sizes where offset < input.count {
        let end = min(input.count, offset + size)
        input[offset..<end].withUnsafeBytes { reader.append($0) }
        offset = end
        while let item = reader.next() {
            if case .refused = items.last { fatalError("an item after a refusal") }
            items.append(item)
        }
        if reader.buffered > reader.bufferLimit { fatalError("\(reader.buffered) bytes held, limit \(reader.bufferLimit)") }
    }
    for (index, item) in items.enumerated() {
        switch item {
        case .refused(let status, _):
            guard [400, 404, 413].contains(status), index == items.count - 1, reader.isClosed, reader.buffered == 0 else {
                fatalError("refused \(status) at \(index) of \(items.count)")
            }
        case .interleaved(_, let payload):
            if payload.count > reader.interleavedLimit { fatalError("payload of \(payload.count)") }
        case .request(let request):
            let head = request.received - request.body.count
            guard head <= reader.headLimit, request.body.count <= reader.bodyLimit, request.fields.count <= reader.fieldLimit,
                request.version.hasPrefix("RTSP/1."), !request.method.isEmpty, !request.uri.isEmpty
            else { fatalError("request out of bounds: \(request)") }
            if reader.rules != nil, request.cseq == nil { fatalError("let through without CSeq") }
        }
    }
    return items
}
