import OnAirCore

/// A capture source as named on the command line (`--video`, `--audio`): `synthetic`,
/// `v4l2:/dev/videoN`, `x11:DISPLAY`, `alsa:DEVICE`, `pulse:SOURCE`, `file:PATH` or `none` (Linux),
/// `camera[:front|back|UNIQUE-ID]` or `microphone[:UNIQUE-ID]` (AVCaptureSession, Apple platforms).
public enum SourceSpec: Sendable, Hashable, CustomStringConvertible {
    /// Generated test pattern and tone.
    case synthetic
    /// A Video4Linux2 camera, by device path.
    case v4l2(device: String)
    /// An X11 screen: ":0", "host:0", ":99.0+10,20" (screen and top-left offset).
    case x11(display: String)
    /// An ALSA capture device: "default", "hw:0", "plughw:1,0".
    case alsa(device: String)
    /// A PulseAudio source: "default", "alsa_input.…", "<sink>.monitor".
    case pulse(source: String)
    /// Anything FFmpeg reads, played at real time.
    case file(path: String)
    /// An AVCaptureSession camera (Apple platforms): `front`, `back`, a unique ID, or `default` for the first.
    case camera(spec: String)
    /// An AVCaptureSession microphone (Apple platforms): a unique ID, or `default` for the system's.
    case microphone(device: String)
    /// No source for this kind of media.
    case none

    /// Parses the command-line form; throws an `OnAirError` naming what is wrong and the accepted forms.
    public init(parsing text: String) throws {
        try self.init(parsingTyped: text)
    }

    /// `init(parsing:)` with the error's type.
    package init(parsingTyped text: String) throws(SourceSpecError) {
        let kind: Substring, argument: Substring?
        if let colon = text.firstIndex(of: ":") {
            kind = text[..<colon]
            argument = text[text.index(after: colon)...]
        } else {
            kind = Substring(text)
            argument = nil
        }
        switch kind {
        case "synthetic", "none":
            if let argument { throw .unexpectedArgument(kind: String(kind), text: String(kind) + ":" + argument) }
            self = kind == "none" ? .none : .synthetic
        case "v4l2":
            let device = try Self.required(argument, kind: "v4l2", example: "v4l2:/dev/video0")
            guard device.hasPrefix("/") else {
                throw .invalidArgument(text: text, problem: "expected a device path such as /dev/video0")
            }
            self = .v4l2(device: device)
        case "x11":
            let display = try Self.required(argument, kind: "x11", example: "x11::0")
            if let problem = Self.displayProblem(display) { throw .invalidArgument(text: text, problem: problem) }
            self = .x11(display: display)
        case "alsa":
            self = .alsa(device: try Self.required(argument, kind: "alsa", example: "alsa:default"))
        case "pulse":
            self = .pulse(source: try Self.required(argument, kind: "pulse", example: "pulse:default"))
        case "file":
            self = .file(path: try Self.required(argument, kind: "file", example: "file:clip.mp4"))
        case "camera":
            self = .camera(spec: argument.map(String.init).flatMap { $0.isEmpty ? nil : $0 } ?? "default")
        case "microphone":
            self = .microphone(device: argument.map(String.init).flatMap { $0.isEmpty ? nil : $0 } ?? "default")
        default:
            throw .unknownKind(text: text)
        }
    }

    private static func required(_ argument: Substring?, kind: String, example: String) throws(SourceSpecError) -> String {
        guard let argument, !argument.isEmpty else { throw .missingArgument(kind: kind, example: example) }
        return String(argument)
    }

    /// Why `display` is not `[host]:N[.S][+X,Y]`, or nil when it is.
    static func displayProblem(_ display: String) -> String? {
        guard let colon = display.lastIndex(of: ":") else {
            return "expected an X display such as :0 or :99.0+0,0"
        }
        var rest = display[display.index(after: colon)...]
        var offset: Substring?
        if let plus = rest.firstIndex(of: "+") {
            offset = rest[rest.index(after: plus)...]
            rest = rest[..<plus]
        }
        let numbers = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(numbers.count), numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
            return "expected a display number after ':' (e.g. :0 or :0.1), got '\(rest)'"
        }
        if let offset {
            let parts = offset.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ Int($0).map { $0 >= 0 } == true }) else {
                return "expected the offset as +X,Y (e.g. +0,0), got '+\(offset)'"
            }
        }
        return nil
    }

    /// The media this kind of source can deliver.
    public var mediaTypes: Set<MediaType> {
        switch self {
        case .synthetic, .file: return [.video, .audio]
        case .v4l2, .x11, .camera: return [.video]
        case .alsa, .pulse, .microphone: return [.audio]
        case .none: return []
        }
    }

    /// The command-line form, which `init(parsing:)` reads back.
    public var description: String {
        switch self {
        case .synthetic: return "synthetic"
        case .none: return "none"
        case .v4l2(let device): return "v4l2:\(device)"
        case .x11(let display): return "x11:\(display)"
        case .alsa(let device): return "alsa:\(device)"
        case .pulse(let source): return "pulse:\(source)"
        case .file(let path): return "file:\(path)"
        case .camera(let spec): return "camera:\(spec)"
        case .microphone(let device): return "microphone:\(device)"
        }
    }
}
