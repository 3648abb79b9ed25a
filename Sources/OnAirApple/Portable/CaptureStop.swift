/// Why an AVCaptureSession source stopped by itself, and the error it ends with — the way the
/// Linux device sources end on a lost device: `CaptureHandlers.ended` once, with an error naming
/// the source and the reason. An interruption (a phone call, another app taking the camera, the
/// app going to the background) ends the source too: AVCaptureSession may resume by itself later,
/// but the session's timeline, like a Linux device's, does not wait for it.
public enum CaptureStop: Sendable, Equatable {
    /// `AVCaptureSession.runtimeErrorNotification`, with the error's description when it has one.
    case runtimeError(String?)
    /// `AVCaptureDevice.wasDisconnectedNotification` for the source's device.
    case deviceDisconnected
    /// `AVCaptureSession.wasInterruptedNotification`, with the raw `AVCaptureSession.InterruptionReason`
    /// when the notification carries one (iOS, Mac Catalyst, tvOS).
    case interrupted(reason: Int?)

    /// The reason in words.
    public var reason: String {
        switch self {
        case .runtimeError(let detail):
            return "the capture session stopped with a runtime error" + (detail.map { ": \($0)" } ?? "")
        case .deviceDisconnected:
            return "the device was disconnected"
        case .interrupted(let reason):
            let why: String? =
                switch reason {
                case 1: "the app went to the background"
                case 2: "another client took the audio device (a call or an alarm)"
                case 3: "another client took the camera"
                case 4: "the camera is not available with several apps in the foreground"
                case 5: "the camera is not available under the system's pressure"
                case let value?: "reason \(value)"
                case nil: nil
                }
            return "the capture session was interrupted" + (why.map { ": \($0)" } ?? "")
        }
    }

    /// The error the source ends with.
    public func error(source: String) -> AppleBackendError {
        AppleBackendError(operation: source, detail: reason)
    }
}
