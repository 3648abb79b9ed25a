#if os(Linux)
import Foundation
import OnAir

/// `onair devices`: the cameras, microphones and screens present, with their formats.
struct DevicesCommand: Command {
    static let name = "devices"
    static let summary = "list cameras, microphones and screens to capture from"
    static let help = """
        Usage: onair devices [--json]

        Lists V4L2 cameras (/dev/video*), PulseAudio sources and ALSA capture devices (microphones),
        and X11 displays (screens), each with the SRC to pass to --video or --audio and its formats.

          --json    print a JSON array instead of a table
        """

    let json: Bool

    init(arguments: inout ArgumentList) throws {
        json = arguments.flag("--json")
    }

    func run() throws -> Int32 {
        let devices = CaptureDeviceInfo.list()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(devices), as: UTF8.self))
            return 0
        }
        for kind in CaptureDeviceInfo.Kind.allCases {
            let found = devices.filter { $0.kind == kind }
            print("\(kind.rawValue)s:" + (found.isEmpty ? " none found" : ""))
            for device in found {
                print("  \(device.spec.padding(toLength: 28, withPad: " ", startingAt: 0)) \(device.name)")
                for format in device.formats { print("      \(format.pixelFormat): \(format.sizes.joined(separator: ", "))") }
            }
        }
        return 0
    }
}
#endif
