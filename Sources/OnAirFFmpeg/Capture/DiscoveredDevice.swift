#if os(Linux)
import OnAirCore

/// A capture device found by `DeviceDiscovery`, described in libavdevice's terms.
package struct DiscoveredDevice: Sendable, Hashable, Codable {
    /// One pixel (or compressed) format a video device offers, with the sizes it offers it in.
    package typealias Format = CaptureFormat

    /// The libavdevice input that opens it.
    package var kind: DeviceSource.Kind
    /// The device argument for that input: "/dev/video0", "hw:0", "alsa_input.…", ":99".
    package var device: String
    /// A human-readable description (card name, PulseAudio description, "X11 display :99").
    package var description: String
    /// The formats it offers, when they could be queried.
    package var formats: [Format]

    /// Creates a description.
    package init(kind: DeviceSource.Kind, device: String, description: String, formats: [Format] = []) {
        self.kind = kind
        self.device = device
        self.description = description
        self.formats = formats
    }
}
#endif
