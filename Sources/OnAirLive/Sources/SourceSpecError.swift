import OnAirCore

/// Why a `--video`/`--audio` source argument was rejected or could not be turned into a source.
package enum SourceSpecError: OnAirError, Equatable {
    /// The text is not one of the known forms.
    case unknownKind(text: String)
    /// A kind that needs an argument got none (e.g. "v4l2:").
    case missingArgument(kind: String, example: String)
    /// A kind that takes no argument got one (e.g. "none:x").
    case unexpectedArgument(kind: String, text: String)
    /// The argument is malformed; `problem` says how.
    case invalidArgument(text: String, problem: String)
    /// The source cannot deliver the media it was asked for (e.g. `--video pulse:default`).
    case wrongMediaType(text: String, wanted: MediaType)
    /// The source is not available in this build (v4l2/x11/alsa/pulse/file need Linux with FFmpeg;
    /// camera/microphone need AVFoundation).
    case unsupportedOnThisPlatform(text: String)

    /// The accepted forms, for help and error text.
    public static let forms =
        "synthetic, v4l2:/dev/videoN, x11:DISPLAY (e.g. x11::0 or x11::99.0+0,0), alsa:DEVICE, pulse:SOURCE, file:PATH, none; "
        + "on Apple platforms camera[:front|back|ID], microphone[:ID]"

    /// Always true: the source specification is the caller's.
    public var isInvalidSettings: Bool { true }

    /// What is wrong with the specification, with the forms accepted.
    public var description: String {
        switch self {
        case .unknownKind(let text):
            return "unknown source '\(text)': expected one of \(Self.forms)"
        case .missingArgument(let kind, let example):
            return "source '\(kind):' needs an argument, e.g. \(example)"
        case .unexpectedArgument(let kind, let text):
            return "source '\(kind)' takes no argument, got '\(text)'"
        case .invalidArgument(let text, let problem):
            return "invalid source '\(text)': \(problem)"
        case .wrongMediaType(let text, let wanted):
            return "source '\(text)' cannot deliver \(wanted.rawValue)"
        case .unsupportedOnThisPlatform(let text):
            return "source '\(text)' is not supported on this platform"
        }
    }
}
