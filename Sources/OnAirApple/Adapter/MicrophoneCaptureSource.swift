// Apple-only: compiles to nothing on Linux except under the stub check (scripts/apple-stub-check.sh).
#if canImport(AVFoundation) || ONAIR_APPLE_STUBS
#if canImport(AVFoundation)
import AVFoundation
import CoreAudio
import CoreMedia
#else
import AppleAPIStubs
#endif
import Foundation
import OnAirCore

/// A microphone through AVCaptureSession as a `CaptureSource`: the default audio device or one by
/// unique ID, its PCM (whatever linear format the device gives) turned into `PCMBuffer`s by
/// `CapturedAudioFormat`, stamped by `HostTimeMapper` and kept continuous by
/// `CapturedAudioTimeline`. A runtime error, the device going away or an interruption ends the
/// source once with the reason (`CaptureStop`), as the Linux sources report a lost device.
/// Not yet built on a Mac: see docs/APPLE.md.
public final class MicrophoneCaptureSource: CaptureSource, Sendable {
    /// `microphone:<unique ID>`, or `microphone:` for the default device.
    public let name: String
    /// Audio.
    public let mediaTypes: Set<MediaType> = [.audio]
    private let uniqueID: String
    private let run = CaptureSessionRun(label: "onair.microphone")

    /// A source for the microphone with `uniqueID`, or the system's default one when it is empty.
    public init(uniqueID: String = "") {
        self.uniqueID = uniqueID
        name = "microphone:\(uniqueID)"
    }

    /// Opens the microphone and starts the session; returns once it runs.
    package func start(clock: CaptureClock, handlers: CaptureHandlers) throws {
        let found = uniqueID.isEmpty ? AVCaptureDevice.default(for: .audio) : AVCaptureDevice(uniqueID: uniqueID)
        guard let device = found else {
            throw AppleBackendError(operation: "microphone", detail: uniqueID.isEmpty ? "no audio capture device" : "no device \(uniqueID)")
        }
        let output = AVCaptureAudioDataOutput()
        let mapper = HostTimeMapper(session: clock.now(), hostSeconds: CMClockGetTime(CMClockGetHostTimeClock()).seconds)
        let delegate = MicrophoneSampleDelegate(source: "microphone \(device.localizedName)", handlers: handlers, mapper: mapper)
        output.setSampleBufferDelegate(delegate, queue: run.queue)
        try run.start(device: device, output: output, delegate: delegate) { delegate.end($0) }
    }

    /// Stops the session and waits until no buffer is being delivered.
    public func stop() { run.stop() }
}

/// Receives the microphone's sample buffers on the capture queue and hands `PCMBuffer`s to the handlers.
final class MicrophoneSampleDelegate: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, Sendable {
    private let source: String
    private let handlers: CaptureHandlers
    private struct State {
        var mapper: HostTimeMapper
        var timeline = CapturedAudioTimeline()
        var ended = false
    }

    private let state: Locked<State>

    init(source: String, handlers: CaptureHandlers, mapper: HostTimeMapper) {
        self.source = source
        self.handlers = handlers
        state = Locked(State(mapper: mapper))
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let frameCount = CMSampleBufferGetNumSamples(sampleBuffer)
        guard frameCount > 0, let description = CMSampleBufferGetFormatDescription(sampleBuffer),
            let asbd = CMAudioFormatDescriptionGetStreamBasicDescription(description)?.pointee
        else { return }
        do {
            let format = try CapturedAudioFormat(
                formatID: asbd.mFormatID, flags: asbd.mFormatFlags, sampleRate: asbd.mSampleRate,
                channelsPerFrame: asbd.mChannelsPerFrame, bitsPerChannel: asbd.mBitsPerChannel, bytesPerFrame: asbd.mBytesPerFrame)
            let host = CMSampleBufferGetPresentationTimeStamp(sampleBuffer).seconds
            let (stopped, pts) = state.withLock { state in
                let pts = state.timeline.pts(
                    deviceTime: state.mapper.sessionTime(ofHostSeconds: host), frameCount: frameCount, sampleRate: format.sampleRate)
                return (state.ended, pts)
            }
            guard !stopped else { return }
            handlers.audio(try Self.pcm(sampleBuffer, format: format, frameCount: frameCount, pts: pts))
        } catch {
            end(error)
        }
    }

    /// The sample buffer's audio buffers (asked for their size first, as the function's page says), copied out.
    private static func pcm(_ sampleBuffer: CMSampleBuffer, format: CapturedAudioFormat, frameCount: Int, pts: MediaTime) throws
        -> PCMBuffer
    {
        var size = 0
        var status = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
            sampleBuffer, bufferListSizeNeededOut: &size, bufferListOut: nil, bufferListSize: 0, blockBufferAllocator: nil,
            blockBufferMemoryAllocator: nil, flags: 0, blockBufferOut: nil)
        guard status == 0, size >= MemoryLayout<AudioBufferList>.size else {
            throw AppleBackendError(operation: "CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer", status: status)
        }
        let storage = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<AudioBufferList>.alignment)
        defer { storage.deallocate() }
        let list = storage.bindMemory(to: AudioBufferList.self, capacity: 1)
        var block: CMBlockBuffer?
        status = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
            sampleBuffer, bufferListSizeNeededOut: nil, bufferListOut: list, bufferListSize: size, blockBufferAllocator: nil,
            blockBufferMemoryAllocator: nil, flags: 0, blockBufferOut: &block)
        guard status == 0 else {
            throw AppleBackendError(operation: "CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer", status: status)
        }
        let buffers = UnsafeMutableAudioBufferListPointer(list).map { buffer in
            UnsafeRawBufferPointer(start: buffer.mData, count: buffer.mData == nil ? 0 : Int(buffer.mDataByteSize))
        }
        return try withExtendedLifetime(block) { try format.buffer(from: buffers, frameCount: frameCount, pts: pts) }
    }

    /// The source stopped by itself: report it once.
    func end(_ stop: CaptureStop) {
        end(stop.error(source: source))
    }

    private func end(_ error: any Error) {
        let first = state.withLock { state in
            defer { state.ended = true }
            return !state.ended
        }
        if first { handlers.ended(error) }
    }
}
#endif
