// Apple-only: compiles to nothing on Linux except under the stub check (scripts/apple-stub-check.sh).
#if canImport(VideoToolbox) || ONAIR_APPLE_STUBS
#if canImport(VideoToolbox)
import CoreFoundation
import CoreMedia
import CoreVideo
import VideoToolbox
#else
import AppleAPIStubs
#endif
import Foundation
import OnAirBitstream
import OnAirCore

/// H.264 or H.265 (the settings' `codec`) on VideoToolbox's VTCompressionSession, behind the same
/// `VideoEncoding` protocol as the libavcodec encoder. Every decision is made by the portable
/// core: the session's codec type and properties by `CompressionPropertyPlan`, forced keyframes by
/// `KeyFramePolicy`, the packets by `H264SamplePackager` or `HEVCSamplePackager`, the pixel copy
/// by `PixelBufferFill`. This type only converts and calls.
///
/// The session opens at the first frame, at that frame's size. Not yet built on a Mac: see docs/APPLE.md.
public final class VideoToolboxH264Encoder: VideoEncoding {
    /// The settings in force.
    public private(set) var settings: VideoEncoderSettings
    /// Which encoder runs: VideoToolbox, hardware required or not, and why hardware did not open.
    public private(set) var summary: String
    private let plan: CompressionPropertyPlan
    private var policy: KeyFramePolicy
    private let output: EncodedOutput
    private var session: VTCompressionSession?

    /// Validates `settings` into a property plan; the session opens at the first frame.
    /// `requireHardware` asks for the hardware encoder where the OS lets the caller ask.
    package init(settings: VideoEncoderSettings, requireHardware: Bool = true, form: BitstreamForm = .annexB(parameterSetsInBand: true))
        throws
    {
        self.settings = settings
        plan = try CompressionPropertyPlan(settings: settings, requireHardware: requireHardware)
        policy = KeyFramePolicy(settings: settings)
        output = EncodedOutput(
            packager: settings.codec == .h265
                ? .hevc(try HEVCSamplePackager(outputForm: form)) : .h264(try H264SamplePackager(outputForm: form)))
        summary = "VideoToolbox \(Self.codecName(settings.codec))"
    }

    deinit {
        if let session { VTCompressionSessionInvalidate(session) }
    }

    /// "H.264" or "H.265", for the summary.
    static func codecName(_ codec: MediaCodec) -> String { codec == .h265 ? "H.265" : "H.264" }

    /// Encodes one frame; `forceKeyFrame` makes it an IDR. Returns the packets ready now.
    package func encode(_ frame: VideoFrame, forceKeyFrame: Bool) throws -> [EncodedPacket] {
        let session = try self.session ?? open(width: frame.width, height: frame.height)
        let pixels = try pixelBuffer(for: frame)
        let force = policy.forceKeyFrame(at: frame.pts, requested: forceKeyFrame)
        let properties =
            force
            ? CoreFoundationValues.dictionary([(kVTEncodeFrameOptionKey_ForceKeyFrame, CoreFoundationValues.boolean(true))])
            : nil
        let output = self.output
        let status = VTCompressionSessionEncodeFrame(
            session, imageBuffer: pixels, presentationTimeStamp: CoreFoundationValues.time(frame.pts),
            duration: CMTime.invalid, frameProperties: properties, infoFlagsOut: nil
        ) { status, _, sample in
            output.receive(status: status, sample: sample)
        }
        guard status == noErr else { throw AppleBackendError(operation: "VTCompressionSessionEncodeFrame", status: status) }
        return try take()
    }

    /// Drains the frames still inside the session.
    package func flush() throws -> [EncodedPacket] {
        if let session {
            let status = VTCompressionSessionCompleteFrames(session, untilPresentationTimeStamp: CMTime.invalid)
            guard status == noErr else { throw AppleBackendError(operation: "VTCompressionSessionCompleteFrames", status: status) }
        }
        return try take()
    }

    /// Sets AverageBitRate and DataRateLimits on the running session.
    public func setBitRate(average: Int, dataRateLimits: [VideoEncoderSettings.DataRateLimit]) throws {
        settings.averageBitRate = average
        settings.dataRateLimits = dataRateLimits
        guard let session else { return }
        for entry in CompressionPropertyPlan.bitRateEntries(average: average, limits: dataRateLimits) {
            try set(entry, on: session)
        }
    }

    /// Packets the output handler has made, with the keyframes reported back to the policy.
    private func take() throws -> [EncodedPacket] {
        let (packets, failure) = output.drain()
        if let failure { throw failure }
        for packet in packets { policy.encoded(isKeyframe: packet.isKeyframe, pts: packet.pts) }
        return packets
    }

    private func open(width: Int, height: Int) throws -> VTCompressionSession {
        let plan = self.plan.sized(width: width, height: height)
        var specification: CFDictionary?
        if plan.requireHardware {
            if #available(iOS 17.4, *) {
                specification = CoreFoundationValues.dictionary([
                    (kVTVideoEncoderSpecification_RequireHardwareAcceleratedVideoEncoder, CoreFoundationValues.boolean(true))
                ])
            }
        }
        var created: VTCompressionSession?
        let codecType = plan.codec == .h265 ? kCMVideoCodecType_HEVC : kCMVideoCodecType_H264
        var status = VTCompressionSessionCreate(
            allocator: nil, width: Int32(plan.width), height: Int32(plan.height), codecType: codecType,
            encoderSpecification: specification, imageBufferAttributes: nil, compressedDataAllocator: nil,
            outputCallback: nil, refcon: nil, compressionSessionOut: &created)
        if status != noErr, specification != nil {
            // No hardware encoder for these settings: say why and open whatever VideoToolbox has.
            summary = "VideoToolbox \(Self.codecName(plan.codec)) (hardware required but unavailable: OSStatus \(status))"
            status = VTCompressionSessionCreate(
                allocator: nil, width: Int32(plan.width), height: Int32(plan.height), codecType: codecType,
                encoderSpecification: nil, imageBufferAttributes: nil, compressedDataAllocator: nil,
                outputCallback: nil, refcon: nil, compressionSessionOut: &created)
        } else if specification != nil {
            summary = "VideoToolbox \(Self.codecName(plan.codec)) (hardware)"
        }
        guard status == noErr, let session = created else {
            throw AppleBackendError(operation: "VTCompressionSessionCreate", status: status, detail: "\(plan.width)×\(plan.height)")
        }
        for entry in plan.entries {
            try set(entry, on: session)
        }
        let prepared = VTCompressionSessionPrepareToEncodeFrames(session)
        guard prepared == noErr else { throw AppleBackendError(operation: "VTCompressionSessionPrepareToEncodeFrames", status: prepared) }
        self.session = session
        return session
    }

    private func set(_ entry: CompressionPropertyPlan.Entry, on session: VTCompressionSession) throws {
        let value: CFTypeRef
        switch entry.value {
        case .boolean(let flag): value = CoreFoundationValues.boolean(flag)
        case .integer(let number): value = CoreFoundationValues.number(number)
        case .number(let number): value = CoreFoundationValues.number(number)
        case .numbers(let numbers): value = CoreFoundationValues.array(numbers.map { CoreFoundationValues.number($0) })
        case .profileLevel(let name):
            guard let constant = VideoToolboxConstants.profileLevels[name] else {
                throw AppleBackendError(operation: "ProfileLevel", detail: "no constant kVTProfileLevel_\(name)")
            }
            value = constant
        }
        let status = VTSessionSetProperty(session, key: VideoToolboxConstants.key(entry.key), value: value)
        guard status == noErr else {
            throw AppleBackendError(operation: "VTSessionSetProperty \(entry.key.constantName)", status: status, detail: "\(entry)")
        }
    }

    private func pixelBuffer(for frame: VideoFrame) throws -> CVPixelBuffer {
        let layout = try PixelBufferFill.layout(for: frame.pixelFormat)
        let format = layout == .nv12 ? kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange : kCVPixelFormatType_32BGRA
        var created: CVPixelBuffer?
        let status = CVPixelBufferCreate(kCFAllocatorDefault, frame.width, frame.height, format, nil, &created)
        guard status == kCVReturnSuccess, let buffer = created else {
            throw AppleBackendError(operation: "CVPixelBufferCreate", status: status)
        }
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        for plane in 0..<layout.planeCount {
            let address: UnsafeMutableRawPointer?
            let stride: Int
            if layout == .bgra {
                address = CVPixelBufferGetBaseAddress(buffer)
                stride = CVPixelBufferGetBytesPerRow(buffer)
            } else {
                address = CVPixelBufferGetBaseAddressOfPlane(buffer, plane)
                stride = CVPixelBufferGetBytesPerRowOfPlane(buffer, plane)
            }
            guard let address else { throw AppleBackendError(operation: "CVPixelBufferGetBaseAddress", detail: "plane \(plane)") }
            try PixelBufferFill.copy(frame, plane: plane, into: address, bytesPerRow: stride)
        }
        return buffer
    }
}

/// What the session's output handler (called on VideoToolbox's thread) hands back, under a lock.
final class EncodedOutput: Sendable {
    /// The packager for the session's codec.
    enum Packager: Sendable {
        case h264(H264SamplePackager)
        case hevc(HEVCSamplePackager)
    }

    private let packager: Packager
    private let state = Locked<(packets: [EncodedPacket], failure: (any Error)?)>(([], nil))

    init(packager: Packager) { self.packager = packager }

    /// One compressed frame (or a dropped one: no sample) from the output handler.
    func receive(status: OSStatus, sample: CMSampleBuffer?) {
        let result: Result<EncodedPacket?, any Error>
        if status != noErr {
            result = .failure(AppleBackendError(operation: "VTCompressionSession output", status: status))
        } else if let sample {
            result = Result { try packet(from: sample) }
        } else {
            result = .success(nil)
        }
        state.withLock { state in
            switch result {
            case .success(let packet): if let packet { state.packets.append(packet) }
            case .failure(let error): state.failure = state.failure ?? error
            }
        }
    }

    /// The packets so far and the first failure, emptied.
    func drain() -> ([EncodedPacket], (any Error)?) {
        state.withLock { state in
            defer { state = ([], nil) }
            return (state.packets, state.failure)
        }
    }

    private func packet(from sample: CMSampleBuffer) throws -> EncodedPacket {
        guard let block = CMSampleBufferGetDataBuffer(sample), let format = CMSampleBufferGetFormatDescription(sample) else {
            throw AppleBackendError(operation: "CMSampleBufferGetDataBuffer", detail: "an encoded sample without data")
        }
        let length = CMBlockBufferGetDataLength(block)
        var bytes = [UInt8](repeating: 0, count: length)
        let copied = CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: length, destination: &bytes)
        guard copied == noErr else { throw AppleBackendError(operation: "CMBlockBufferCopyDataBytes", status: copied) }
        let (sets, headerLength) = try Self.parameterSets(of: format, hevc: { if case .hevc = packager { true } else { false } }())
        guard let pts = CoreFoundationValues.mediaTime(CMSampleBufferGetPresentationTimeStamp(sample)) else {
            throw AppleBackendError(operation: "CMSampleBufferGetPresentationTimeStamp", detail: "invalid time")
        }
        let dts = CoreFoundationValues.mediaTime(CMSampleBufferGetDecodeTimeStamp(sample))
        let duration = CoreFoundationValues.mediaTime(CMSampleBufferGetDuration(sample)) ?? .zero
        switch packager {
        case .h264(let h264):
            return try h264.packet(sample: bytes, lengthSize: headerLength, parameterSets: sets, pts: pts, dts: dts, duration: duration)
        case .hevc(let hevc):
            return try hevc.packet(sample: bytes, lengthSize: headerLength, parameterSets: sets, pts: pts, dts: dts, duration: duration)
        }
    }

    /// The parameter sets of a format description and its NAL unit length size, through
    /// CoreMedia's H.264 or HEVC getter (the two take the same arguments).
    private static func parameterSets(of format: CMFormatDescription, hevc: Bool) throws -> ([[UInt8]], Int) {
        let get = hevc ? CMVideoFormatDescriptionGetHEVCParameterSetAtIndex : CMVideoFormatDescriptionGetH264ParameterSetAtIndex
        let operation = hevc ? "CMVideoFormatDescriptionGetHEVCParameterSetAtIndex" : "CMVideoFormatDescriptionGetH264ParameterSetAtIndex"
        var count = 0
        var headerLength: Int32 = 0
        var status = get(format, 0, nil, nil, &count, &headerLength)
        guard status == noErr else { throw AppleBackendError(operation: operation, status: status) }
        var sets: [[UInt8]] = []
        for index in 0..<count {
            var pointer: UnsafePointer<UInt8>?
            var size = 0
            status = get(format, index, &pointer, &size, nil, nil)
            guard status == noErr, let pointer else { throw AppleBackendError(operation: operation, status: status) }
            sets.append(Array(UnsafeBufferPointer(start: pointer, count: size)))
        }
        return (sets, Int(headerLength))
    }
}
#endif
