import OnAirCore

/// A capture device present on this machine, as `onair devices` lists it.
public struct CaptureDeviceInfo: Sendable, Hashable, Codable {
    /// What kind of device it is.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A camera (V4L2), a microphone or other sound source (ALSA, PulseAudio), or a screen (X11).
        case camera, microphone, screen
    }

    /// A pixel format the device offers and the sizes it offers it in ("640x480").
    package typealias Format = CaptureFormat

    /// Camera, microphone or screen.
    public var kind: Kind
    /// The source argument that captures from it with `--video`/`--audio` (e.g. "x11::0").
    public var spec: String
    /// A human-readable name.
    public var name: String
    /// The formats it offers, when they could be queried (screens: their size).
    public var formats: [CaptureFormat]

    /// Creates a description.
    public init(kind: Kind, spec: String, name: String, formats: [CaptureFormat] = []) {
        self.kind = kind
        self.spec = spec
        self.name = name
        self.formats = formats
    }
}
