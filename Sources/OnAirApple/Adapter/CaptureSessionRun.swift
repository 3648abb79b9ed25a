// Apple-only: compiles to nothing on Linux except under the stub check (scripts/apple-stub-check.sh).
#if canImport(AVFoundation) || ONAIR_APPLE_STUBS
#if canImport(AVFoundation)
import AVFoundation
#else
import AppleAPIStubs
#endif
import Foundation

/// The running part the camera and the microphone share: a session with one device and one data
/// output, the notifications that end the source (`CaptureStop`: a runtime error, an interruption,
/// the device disconnected), and stopping. The delegate queue is serial and `stop` waits on it.
/// Unchecked Sendable: an AVCaptureSession (not Sendable) used on its serial delegate queue; `stop` waits on it
final class CaptureSessionRun: @unchecked Sendable {
    /// The queue the output's delegate is called on.
    let queue: DispatchQueue
    private let lock = NSLock()
    private var session: AVCaptureSession?
    private var delegate: AnyObject?
    private var observers: [any NSObjectProtocol] = []

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Puts `device` and `output` (its delegate already set to `delegate`, kept alive here) in a new
    /// session and starts it; `ended` hears why it stopped by itself.
    func start(
        device: AVCaptureDevice, output: AVCaptureOutput, delegate: AnyObject, ended: @escaping @Sendable (CaptureStop) -> Void
    ) throws {
        let session = AVCaptureSession()
        session.beginConfiguration()
        let input = try AVCaptureDeviceInput(device: device)
        guard session.canAddInput(input) else {
            throw AppleBackendError(operation: "AVCaptureSession addInput", detail: device.localizedName)
        }
        session.addInput(input)
        guard session.canAddOutput(output) else {
            throw AppleBackendError(operation: "AVCaptureSession addOutput", detail: device.localizedName)
        }
        session.addOutput(output)
        session.commitConfiguration()
        let center = NotificationCenter.default
        let observers = [
            center.addObserver(forName: AVCaptureSession.runtimeErrorNotification, object: session, queue: nil) { note in
                ended(.runtimeError((note.userInfo?[AVCaptureSessionErrorKey] as? any Error).map { "\($0)" }))
            },
            center.addObserver(forName: AVCaptureSession.wasInterruptedNotification, object: session, queue: nil) { note in
                ended(.interrupted(reason: Self.interruptionReason(note)))
            },
            center.addObserver(forName: AVCaptureDevice.wasDisconnectedNotification, object: device, queue: nil) { _ in
                ended(.deviceDisconnected)
            },
        ]
        lock.lock()
        self.session = session
        self.delegate = delegate
        self.observers = observers
        lock.unlock()
        session.startRunning()
    }

    /// Stops the session and waits until no sample is being delivered.
    func stop() {
        lock.lock()
        let session = self.session
        let observers = self.observers
        self.session = nil
        self.observers = []
        lock.unlock()
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        session?.stopRunning()
        queue.sync {}
    }

    /// The `AVCaptureSession.InterruptionReason` raw value, where the platform gives one (not macOS).
    private static func interruptionReason(_ note: Notification) -> Int? {
        #if !os(macOS)
        return note.userInfo?[AVCaptureSessionInterruptionReasonKey] as? Int
        #else
        return nil
        #endif
    }
}
#endif
