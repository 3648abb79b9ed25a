import Foundation
import OnAirCore
import OnAirServing

/// libFuzzer entry point for what the playback server reads from a request: the input is split
/// at its first two newlines into a query value, a `Range` header and a segment file name. RFC 3339
/// times that parse must format back to the same instant; a query accepted by `/get` has a path
/// that is a stream name (no `..`, no leading `/`) and a span of at most a day; a byte range lies
/// within the body; a span's HLS file name (`/playback/ID.mp4`) is accepted only as it is written;
/// a file name read back by a template gives a start the template writes back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parts = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
    let value = parts[0]
    let range = parts.count > 1 ? parts[1] : nil
    let name = parts.count > 2 ? parts[2] : value

    if let date = PlaybackQuery.parseRFC3339(value) {
        guard let again = PlaybackQuery.parseRFC3339(PlaybackQuery.formatRFC3339(date)),
            abs(again.timeIntervalSince(date)) < 2e-6
        else { fatalError("RFC 3339 round trip of '\(value)'") }
    }
    for query in [
        ["path": value, "start": "2026-01-01T00:00:00Z", "duration": "10"],
        ["path": "live", "start": value, "duration": value, "format": value],
    ] {
        if let accepted = try? PlaybackQuery.get(query) {
            guard !accepted.path.hasPrefix("/"), !accepted.path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }),
                let start = accepted.start, let end = accepted.end, end > start, end.timeIntervalSince(start) <= PlaybackQuery.maximumSpan
            else { fatalError("accepted \(query)") }
        }
    }
    if let id = SpanPlaylist.mediaID(name) {
        guard id.count <= 16, id.allSatisfy({ "0123456789abcdef".contains($0) }), SpanPlaylist.mediaName(id: id) == name else {
            fatalError("span file name '\(name)' accepted as '\(id)'")
        }
    }
    for bodySize in [Int64(0), 1, 1000] {
        switch ByteRange.parse(range, size: bodySize) {
        case let .part(lower, upper):
            guard lower >= 0, lower <= upper, upper < bodySize else { fatalError("range \(lower)-\(upper) of \(bodySize)") }
        case .whole, .unsatisfiable: break
        }
    }
    let utc = TimeZone(secondsFromGMT: 0) ?? .current
    for template in ["rec/%path/%Y-%m-%d/%H-%M-%S-%f", "%path_%s", "%Y%m%d%H%M%S%z"] {
        guard let parsed = try? RecordPathTemplate(template, timeZone: utc) else { fatalError("template \(template)") }
        if let start = parsed.startTime(of: name, pathName: "live") {
            guard parsed.startTime(of: parsed.path(pathName: "live", start: start), pathName: "live") != nil else {
                fatalError("\(template): '\(name)' read as \(start) but not written back")
            }
        }
    }
    return 0
}
