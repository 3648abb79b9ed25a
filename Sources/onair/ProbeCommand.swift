import Foundation
import OnAir

/// `onair probe FILE`: what is in a media file, read by OnAir's own H.264 and AAC parsers.
struct ProbeCommand: Command {
    static let name = "probe"
    static let summary = "describe the H.264 and AAC streams in a file"
    static let help = """
    Usage: onair probe FILE [--units] [--json]

    Reads FILE with OnAir's own bitstream parsers: Annex-B .h264/.264, ADTS .aac, and
    .mp4/.mov/.ts/.flv (demuxed with libavformat, the H.264 and AAC inside parsed by OnAir).

    Options:
      --units   list every NAL unit (type, size, slice type) or ADTS/AAC frame
      --json    print machine-readable JSON instead of the summary
    """

    let path: String
    let listUnits: Bool
    let json: Bool

    init(arguments: inout ArgumentList) throws {
        listUnits = arguments.flag("--units")
        json = arguments.flag("--json")
        let files = arguments.positionals()
        guard files.count == 1 else { throw UsageError("probe takes exactly one FILE") }
        path = files[0]
    }

    func run() throws -> Int32 {
        let report = try Prober.probe(path: path, listUnits: listUnits)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(ProbeFormatter.text(for: report, path: path))
        }
        return 0
    }
}
