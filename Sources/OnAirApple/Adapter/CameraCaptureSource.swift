// Apple-only: compiles to nothing on Linux except under the stub check (scripts/apple-stub-check.sh).
#if canImport(AVFoundation) || ONAIR_APPLE_STUBS
#if canImport(AVFoundation)
import AVFoundation
import CoreFoundation
import CoreMedia
import CoreVideo
#else
import AppleAPIStubs
#endif
import Foundation
import OnAirCore

/// A camera through AVCaptureSession as a `CaptureSource`: the camera by position or unique ID and
/// its format chosen by `CameraSelection`, NV12 frames stamped on the session's clock by
/// `HostTimeMapper`; frames the output drops count as skipped, and a runtime error, an interruption
/// or the camera going away ends the source with the reason (`CaptureStop`), as the Linux device
/// sources report device loss. Video only (`MicrophoneCaptureSource` is the sound). Not yet built
/// on a Mac: see docs/APPLE.md.
public final class CameraCaptureSource: CaptureSource, Sendable {
    /// `camera:<spec>`.
    public let name: String
    /// Video.
    public let mediaTypes: Set<MediaType> = [.video]
    private let request: CameraRequest
    private let width: Int, height: Int, frameRate: Double
    private let run = CaptureSessionRun(label: "onair.camera")

    /// A source for the camera `spec` names (`front`, `back`, a unique ID, or empty for the first)
    /// capturing `width`×`height` at `frameRate`.
    public init(spec: String, width: Int, height: Int, frameRate: Double) {
        request = CameraRequest(spec: spec)
        name = "camera:\(request)"
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }

    /// The cameras the system lists, as the portable selection sees them.
    public static func cameras() -> [CameraDescriptor] {
        devices().map(descriptor)
    }

    /// Opens the camera and starts the session; returns once it runs.
    package func start(clock: CaptureClock, handlers: CaptureHandlers) throws {
        let devices = Self.devices()
        let chosen = try CameraSelection.camera(for: request, among: devices.map(Self.descriptor))
        guard let device = devices.first(where: { $0.uniqueID == chosen.uniqueID }) else { return }
        let index = try CameraSelection.format(width: width, height: height, frameRate: frameRate, among: chosen.formats)
        try device.lockForConfiguration()
        device.activeFormat = device.formats[index]
        let rate = min(frameRate, chosen.formats[index].maxFrameRate)
        device.activeVideoMinFrameDuration = CMTime(value: 1_000, timescale: CMTimeScale((rate * 1_000).rounded()))
        device.unlockForConfiguration()

        let output = AVCaptureVideoDataOutput()
        output.videoSettings = [
            CoreFoundationValues.string(kCVPixelBufferPixelFormatTypeKey): Int(kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        ]
        output.alwaysDiscardsLateVideoFrames = true
        let mapper = HostTimeMapper(session: clock.now(), hostSeconds: CMClockGetTime(CMClockGetHostTimeClock()).seconds)
        let delegate = CameraFrameDelegate(handlers: handlers, mapper: mapper)
        output.setSampleBufferDelegate(delegate, queue: run.queue)
        try run.start(device: device, output: output, delegate: delegate) { stop in
            delegate.end(stop.error(source: "camera \(chosen.name)"))
        }
    }

    /// Stops the session and waits until no frame is being delivered.
    public func stop() { run.stop() }

    private static func devices() -> [AVCaptureDevice] {
        var types: [AVCaptureDevice.DeviceType] = [.builtInWideAngleCamera]
        if #available(iOS 17.0, macOS 14.0, *) { types.append(.external) }
        return AVCaptureDevice.DiscoverySession(deviceTypes: types, mediaType: .video, position: .unspecified).devices
    }

    private static func descriptor(_ device: AVCaptureDevice) -> CameraDescriptor {
        let position: CameraPosition
        switch device.position {
        case .front: position = .front
        case .back: position = .back
        default: position = .unspecified
        }
        let formats = device.formats.map { format in
            let size = CMVideoFormatDescriptionGetDimensions(format.formatDescription)
            return CameraFormat(
                width: Int(size.width), height: Int(size.height),
                maxFrameRate: format.videoSupportedFrameRateRanges.map(\.maxFrameRate).max() ?? 0)
        }
        return CameraDescriptor(uniqueID: device.uniqueID, name: device.localizedName, position: position, formats: formats)
    }
}

/// Receives the camera's sample buffers on the capture queue and hands frames to the handlers.
final class CameraFrameDelegate: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, Sendable {
    private let handlers: CaptureHandlers
    private struct State {
        var mapper: HostTimeMapper
        var ended = false
    }

    private let state: Locked<State>

    init(handlers: CaptureHandlers, mapper: HostTimeMapper) {
        self.handlers = handlers
        state = Locked(State(mapper: mapper))
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let image = CMSampleBufferGetImageBuffer(sampleBuffer),
            CVPixelBufferGetPixelFormatType(image) == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        else { return }
        let host = CMSampleBufferGetPresentationTimeStamp(sampleBuffer).seconds
        let (stopped, pts) = state.withLock { ($0.ended, $0.mapper.sessionTime(ofHostSeconds: host)) }
        guard !stopped else { return }
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        let height = CVPixelBufferGetHeight(image)
        guard let luma = CVPixelBufferGetBaseAddressOfPlane(image, 0), let chroma = CVPixelBufferGetBaseAddressOfPlane(image, 1)
        else { return }
        let lumaStride = CVPixelBufferGetBytesPerRowOfPlane(image, 0)
        let chromaStride = CVPixelBufferGetBytesPerRowOfPlane(image, 1)
        handlers.video(
            PixelBufferFill.nv12Frame(
                width: CVPixelBufferGetWidth(image), height: height,
                luma: UnsafeRawBufferPointer(start: luma, count: lumaStride * height), lumaBytesPerRow: lumaStride,
                chroma: UnsafeRawBufferPointer(start: chroma, count: chromaStride * ((height + 1) / 2)),
                chromaBytesPerRow: chromaStride, pts: pts))
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        handlers.skippedFrames(1)
    }

    /// The source stopped by itself: report it once.
    func end(_ error: AppleBackendError) {
        let first = state.withLock { state in
            defer { state.ended = true }
            return !state.ended
        }
        if first { handlers.ended(error) }
    }
}
#endif
