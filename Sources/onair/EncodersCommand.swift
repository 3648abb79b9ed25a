#if os(Linux)
import Foundation
import OnAir

/// `onair encoders`: every H.264, H.265 and AAC encoder FFmpeg knows, and whether it opens here.
struct EncodersCommand: Command {
    static let name = "encoders"
    static let summary = "list H.264, H.265 and AAC encoders and whether each works on this machine"
    static let help = """
        Usage: onair encoders [--json]

        Tries to open every H.264, H.265 and AAC encoder FFmpeg knows (hardware ones included) with a small
        default setting, and says which work here and, for the others, why not.

          --json    print a JSON array instead of a table
        """

    let json: Bool

    init(arguments: inout ArgumentList) throws {
        json = arguments.flag("--json")
    }

    func run() throws -> Int32 {
        let entries = EncoderAvailability.list()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(entries), as: UTF8.self))
            return 0
        }
        for codec in [MediaCodec.h264, .h265, .aac] {
            print(["h264": "H.264 encoders:", "h265": "H.265 encoders:"][codec.rawValue] ?? "AAC encoders:")
            for entry in entries where entry.codec == codec {
                let kind = entry.isHardware ? "hardware" : "software"
                let status = entry.opens ? "available" : "unavailable: \(entry.reason ?? "unknown reason")"
                print(
                    "  \(entry.name.padding(toLength: 18, withPad: " ", startingAt: 0)) \(kind.padding(toLength: 9, withPad: " ", startingAt: 0)) \(status)"
                )
            }
        }
        return 0
    }
}
#endif
