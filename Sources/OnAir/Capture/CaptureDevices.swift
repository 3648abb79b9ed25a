#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
import OnAirLive
#endif

extension CaptureDeviceInfo {
    /// Every capture device found; empty when there are none (never an error). `pulseServer`
    /// picks a PulseAudio server other than the default one. Opens devices briefly: call it off
    /// the main thread.
    public static func list(pulseServer: String? = nil) -> [CaptureDeviceInfo] {
        CaptureDevices.list(pulseServer: pulseServer)
    }
}

/// Lists the cameras, microphones and screens present, for `onair devices`.
package enum CaptureDevices {
    /// Every capture device found; empty when there are none (never an error). `pulseServer`
    /// picks a PulseAudio server other than the default one. Opens devices briefly: call it off
    /// the main thread.
    public static func list(pulseServer: String? = nil) -> [CaptureDeviceInfo] {
        #if canImport(OnAirFFmpeg)
        let found =
            DeviceDiscovery.cameras() + DeviceDiscovery.screens()
            + DeviceDiscovery.pulseSources(server: pulseServer) + DeviceDiscovery.alsaDevices()
        return found.map(info)
        #else
        return []
        #endif
    }

    #if canImport(OnAirFFmpeg)
    static func info(_ device: DiscoveredDevice) -> CaptureDeviceInfo {
        let formats = device.formats
        let spec: SourceSpec
        let kind: CaptureDeviceInfo.Kind
        switch device.kind {
        case .v4l2: (spec, kind) = (.v4l2(device: device.device), .camera)
        case .x11grab: (spec, kind) = (.x11(display: device.device), .screen)
        case .pulse: (spec, kind) = (.pulse(source: device.device), .microphone)
        case .alsa: (spec, kind) = (.alsa(device: device.device), .microphone)
        }
        return CaptureDeviceInfo(kind: kind, spec: spec.description, name: device.description, formats: formats)
    }
    #endif
}
