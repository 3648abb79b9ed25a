import Foundation
import OnAirCore

/// libFuzzer entry point for the recording's journal reader (`SegmentJournal.parse`), which reads
/// a file on the recording's disk that anything may have written: it must take no more bytes than
/// it is given, only whole lines, and give entries whose fields are within their ranges; reading
/// the same bytes in two pieces at any line boundary gives what reading them at once gives.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var entries: [String: SegmentJournal.Entry] = [:]
    let used = SegmentJournal.parse(bytes[...], into: &entries)
    guard used <= bytes.count, used == 0 || bytes[used - 1] == 10 else { fatalError("took \(used) of \(bytes.count) bytes") }
    for (name, entry) in entries {
        guard !name.isEmpty, !name.contains("\t"), !name.contains("\n"), entry.epoch >= 0,
            entry.duration.map({ $0 >= 0 }) ?? true, (1...64).contains(entry.run.utf8.count)
        else { fatalError("entry \(name): \(entry)") }
    }
    if let split = bytes[..<used].firstIndex(of: 10) {
        var pieces: [String: SegmentJournal.Entry] = [:]
        let first = SegmentJournal.parse(bytes[...split], into: &pieces)
        let second = SegmentJournal.parse(bytes[(split + 1)..<used], into: &pieces)
        guard first + second == used, pieces == entries else { fatalError("reading in two pieces differs") }
    }
    return 0
}
