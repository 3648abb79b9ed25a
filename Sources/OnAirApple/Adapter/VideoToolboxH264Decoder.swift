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

/// H.264 and H.265 decoding on VTDecompressionSession for the player: packets in (any H.264 form,
/// Annex-B or length-prefixed H.265), NV12 `VideoFrame`s out to `handler`, or the decoder's own
/// image buffers (`DecodedPicture`) out to a `PlaybackView`'s player without a copy.
/// `H264DecoderFeed` and `HEVCDecoderFeed` decide when to make a new format description and what
/// to skip (before parameter sets, mid-GOP, after a decode error); this type only converts and
/// calls. Not yet built on a Mac: see docs/APPLE.md.
public final class VideoToolboxH264Decoder {
    private var feed = H264DecoderFeed()
    private var hevcFeed = HEVCDecoderFeed()
    private var session: VTDecompressionSession?
    private var format: CMFormatDescription?
    private let frames: DecodedFrames

    /// A decoder handing each decoded picture to `handler` (on VideoToolbox's thread).
    public init(handler: @escaping @Sendable (VideoFrame) -> Void) {
        frames = DecodedFrames(output: .frames(handler))
    }

    /// A decoder handing each decoded image buffer, as VideoToolbox made it, to `pictures`.
    public init(pictures: @escaping @Sendable (DecodedPicture) -> Void) {
        frames = DecodedFrames(output: .pictures(pictures))
    }

    deinit {
        if let session { VTDecompressionSessionInvalidate(session) }
    }

    /// Packets skipped so far (waiting for parameter sets or an IDR).
    public var skipped: Int { feed.skipped + hevcFeed.skipped }

    /// Decodes one packet (synchronously: its picture reaches the handler before this returns).
    package func decode(_ packet: EncodedPacket) throws {
        if packet.codec == .h265 {
            for step in try hevcFeed.feed(packet) {
                switch step {
                case .configure(let parameterSets): try configure(CoreMediaSamples.hevcFormat(parameterSets: parameterSets))
                case .decode(let sample, let pts, let dts, _): try decode(sample, pts, dts, packet) { $0.hevcFeed.decodeFailed() }
                case .skip: break
                }
            }
            return
        }
        for step in try feed.feed(packet) {
            switch step {
            case .configure(let sps, let pps): try configure(CoreMediaSamples.h264Format(parameterSets: sps + pps))
            case .decode(let sample, let pts, let dts, _): try decode(sample, pts, dts, packet) { $0.feed.decodeFailed() }
            case .skip: break
            }
        }
    }

    /// Decodes one sample of `packet`; on failure tells the feed (`failed`) and throws.
    private func decode(
        _ sample: [UInt8], _ pts: MediaTime, _ dts: MediaTime, _ packet: EncodedPacket,
        failed: (VideoToolboxH264Decoder) -> Void
    ) throws {
        do {
            try decode(sample: sample, pts: pts, dts: dts, duration: packet.duration)
        } catch {
            failed(self)
            throw error
        }
    }

    /// Waits for every frame in flight.
    public func flush() {
        if let session { VTDecompressionSessionWaitForAsynchronousFrames(session) }
    }

    private func configure(_ description: CMFormatDescription) throws {
        format = description
        if let session, VTDecompressionSessionCanAcceptFormatDescription(session, formatDescription: description) {
            return
        }
        if let session { VTDecompressionSessionInvalidate(session) }
        session = nil
        let attributes = CoreFoundationValues.dictionary([
            (kCVPixelBufferPixelFormatTypeKey, CoreFoundationValues.number(Int(kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)))
        ])
        var created: VTDecompressionSession?
        let made = VTDecompressionSessionCreate(
            allocator: kCFAllocatorDefault, formatDescription: description, decoderSpecification: nil,
            imageBufferAttributes: attributes, outputCallback: nil, decompressionSessionOut: &created)
        guard made == noErr, let created else { throw AppleBackendError(operation: "VTDecompressionSessionCreate", status: made) }
        session = created
    }

    private func decode(sample: [UInt8], pts: MediaTime, dts: MediaTime, duration: MediaTime) throws {
        guard let session, let format else { return }
        let buffer = try CoreMediaSamples.sampleBuffer(sample, format: format, pts: pts, dts: dts, duration: duration)
        let frames = self.frames
        let status = VTDecompressionSessionDecodeFrame(session, sampleBuffer: buffer, flags: [], infoFlagsOut: nil) {
            status, _, image, presentationTime, _ in
            frames.receive(status: status, image: image, pts: presentationTime)
        }
        if let failure = frames.takeFailure() { throw failure }
        guard status == noErr else { throw AppleBackendError(operation: "VTDecompressionSessionDecodeFrame", status: status) }
    }
}

/// One decoded picture as VideoToolbox made it: its image buffer and presentation time.
/// Unchecked Sendable: a CVImageBuffer (CoreVideo object) not written after VideoToolbox hands it over
public struct DecodedPicture: @unchecked Sendable {
    /// The image (NV12); VideoToolbox does not touch it again.
    public let image: CVImageBuffer
    /// Its presentation time.
    public let pts: MediaTime
}

/// Decoded pictures from the session's output handler, as they are or turned into `VideoFrame`s.
final class DecodedFrames: Sendable {
    enum Output: Sendable {
        case frames(@Sendable (VideoFrame) -> Void)
        case pictures(@Sendable (DecodedPicture) -> Void)
    }
    private let output: Output
    private let failure = Locked<AppleBackendError?>(nil)

    init(output: Output) { self.output = output }

    func receive(status: OSStatus, image: CVImageBuffer?, pts: CMTime) {
        guard status == noErr else {
            failure.withLock { $0 = $0 ?? AppleBackendError(operation: "VTDecompressionSession output", status: status) }
            return
        }
        guard let image, let time = CoreFoundationValues.mediaTime(pts) else { return }
        let handler: @Sendable (VideoFrame) -> Void
        switch output {
        case .pictures(let pictures):
            pictures(DecodedPicture(image: image, pts: time))
            return
        case .frames(let frames):
            handler = frames
        }
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        let height = CVPixelBufferGetHeight(image)
        guard let luma = CVPixelBufferGetBaseAddressOfPlane(image, 0), let chroma = CVPixelBufferGetBaseAddressOfPlane(image, 1) else {
            return
        }
        let lumaStride = CVPixelBufferGetBytesPerRowOfPlane(image, 0), chromaStride = CVPixelBufferGetBytesPerRowOfPlane(image, 1)
        handler(
            PixelBufferFill.nv12Frame(
                width: CVPixelBufferGetWidth(image), height: height,
                luma: UnsafeRawBufferPointer(start: luma, count: lumaStride * height), lumaBytesPerRow: lumaStride,
                chroma: UnsafeRawBufferPointer(start: chroma, count: chromaStride * ((height + 1) / 2)),
                chromaBytesPerRow: chromaStride, pts: time))
    }

    func takeFailure() -> AppleBackendError? {
        failure.withLock { failure in
            defer { failure = nil }
            return failure
        }
    }
}
#endif
