#if os(Linux)
import Foundation
import OnAir

/// `onair probe FILE`: what is in a media file, read by OnAir's own H.264 and AAC parsers.
struct ProbeCommand: Command {
    static let name = "probe"
    static let summary = "describe the H.264 and AAC streams in a file"
    static let help = """
        Usage: onair probe FILE [--units] [--json]
               onair probe --sync FILE [--json]

        Reads FILE with OnAir's own bitstream parsers: Annex-B .h264/.264, ADTS .aac, and
        .mp4/.mov/.ts/.flv (demuxed with libavformat, the H.264 and AAC inside parsed by OnAir).

        Options:
          --units   list every NAL unit (type, size, slice type) or ADTS/AAC frame
          --sync    for a recording of the synthetic source: decode both streams, find every flash
                    and beep, print the A/V offset per second and its maximum, and the dropped and
                    repeated frames read from the frame codes
          --json    print machine-readable JSON instead of the summary
        """

    let path: String
    let listUnits: Bool
    let json: Bool
    let sync: Bool

    init(arguments: inout ArgumentList) throws {
        listUnits = arguments.flag("--units")
        sync = arguments.flag("--sync")
        if sync && listUnits { throw UsageError("--sync and --units do not go together") }
        json = arguments.flag("--json")
        let files = arguments.positionals()
        guard files.count == 1 else { throw UsageError("probe takes exactly one FILE") }
        path = files[0]
    }

    func run() throws -> Int32 {
        if sync { return try runSync() }
        let report = try ProbeReport.probe(path: path, listUnits: listUnits)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(ProbeFormatter.text(for: report, path: path))
        }
        return 0
    }

    private func runSync() throws -> Int32 {
        let report = try SyncReport.analyze(path: path)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
            return 0
        }
        for offset in report.offsets {
            print(String(format: "  second %4lld: A/V offset %+7.2f ms", offset.second, offset.offsetMilliseconds))
        }
        let max = report.maxAVOffsetMilliseconds.map { String(format: "%.2f ms", $0) } ?? "n/a"
        let mean = report.meanAVOffsetMilliseconds.map { String(format: "%.2f ms", $0) } ?? "n/a"
        print(
            "\(path): \(report.frames) frames, \(report.flashes) flashes, \(report.beeps) beeps; max A/V offset \(max), mean \(mean); \(report.droppedFrames) dropped, \(report.repeatedFrames) repeated frames"
        )
        return 0
    }
}
#endif
