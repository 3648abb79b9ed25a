// Apple-only: compiles to nothing on Linux except under the stub check (scripts/apple-stub-check.sh).
#if canImport(AVFoundation) || ONAIR_APPLE_STUBS
#if canImport(AVFoundation)
import AVFoundation
import CoreFoundation
import CoreMedia
#else
import AppleAPIStubs
#endif
import Foundation
import OnAirCore

/// An `.mp4`/`.mov` recording through AVAssetWriter with the encoded samples passed through (no
/// re-encode), in movie fragments so that a killed app leaves a playable file. `AssetWriterFeed`
/// decides when the writer starts, what is held or dropped and how each sample is framed; this type
/// only makes the CoreMedia objects and calls AVFoundation. Not yet built on a Mac: see docs/APPLE.md.
public final class AssetWriterSink: PacketSink {
    /// The file written.
    public let destination: String
    private var feed: AssetWriterFeed
    private let writer: AVAssetWriter
    private var videoInput: AVAssetWriterInput?
    private var audioInput: AVAssetWriterInput?
    private var videoFormat: CMFormatDescription?
    private var audioFormat: CMFormatDescription?
    /// Samples dropped because an input was not ready for more (the writer fell behind).
    public private(set) var droppedSamples = 0

    /// A recording to `url` of `tracks`, as MP4 (or `.mov` with `fileType: .mov`).
    public init(url: URL, fileType: AVFileType = .mp4, tracks: Set<MediaType>) throws {
        destination = url.path
        feed = AssetWriterFeed(tracks: tracks)
        writer = try AVAssetWriter(outputURL: url, fileType: fileType)
        writer.movieFragmentInterval = CMTime(value: CMTimeValue(AssetWriterFeed.movieFragmentInterval * 1_000), timescale: 1_000)
    }

    /// Takes one packet.
    package func write(_ packet: EncodedPacket) throws {
        for step in try feed.feed(packet) { try apply(step) }
    }

    /// Finishes the file (waits for AVAssetWriter to close it).
    public func finish() throws {
        for step in try feed.finish() { try apply(step) }
        guard writer.status == .writing else { return }
        videoInput?.markAsFinished()
        audioInput?.markAsFinished()
        let done = DispatchSemaphore(value: 0)
        writer.finishWriting { done.signal() }
        done.wait()
        guard writer.status == .completed else {
            throw AppleBackendError(
                operation: "AVAssetWriter finishWriting", detail: writer.error.map { "\($0)" } ?? "status \(writer.status.rawValue)")
        }
    }

    private func apply(_ step: AssetWriterFeed.Step) throws {
        switch step {
        case .begin(let video, let audio, let start):
            if let video {
                let format =
                    video.codec == .h265
                    ? try CoreMediaSamples.hevcFormat(parameterSets: video.parameterSets)
                    : try CoreMediaSamples.h264Format(parameterSets: video.parameterSets)
                videoInput = try add(.video, format: format)
                videoFormat = format
            }
            if let audio {
                let format = try Self.aacFormat(audio)
                audioInput = try add(.audio, format: format)
                audioFormat = format
            }
            guard writer.startWriting() else {
                throw AppleBackendError(operation: "AVAssetWriter startWriting", detail: writer.error.map { "\($0)" } ?? "")
            }
            writer.startSession(atSourceTime: CoreFoundationValues.time(start))
        case .append(let sample):
            let video = sample.mediaType == .video
            guard let input = video ? videoInput : audioInput, let format = video ? videoFormat : audioFormat else { return }
            let buffer = try CoreMediaSamples.sampleBuffer(
                sample.bytes, format: format, pts: sample.pts, dts: sample.dts, duration: sample.duration)
            if video && !sample.isKeyframe { CoreMediaSamples.attach(kCMSampleAttachmentKey_NotSync, to: buffer) }
            guard input.isReadyForMoreMediaData else {
                droppedSamples += 1
                return
            }
            guard input.append(buffer) else {
                throw AppleBackendError(operation: "AVAssetWriterInput append", detail: writer.error.map { "\($0)" } ?? "")
            }
        case .skip:
            break
        }
    }

    private func add(_ type: AVMediaType, format: CMFormatDescription) throws -> AVAssetWriterInput {
        let input = AVAssetWriterInput(mediaType: type, outputSettings: nil, sourceFormatHint: format)
        input.expectsMediaDataInRealTime = true
        guard writer.canAdd(input) else {
            throw AppleBackendError(operation: "AVAssetWriter add", detail: "the writer refuses a \(type.rawValue) input")
        }
        writer.add(input)
        return input
    }

    /// An AAC format description with the AudioSpecificConfig as its magic cookie.
    private static func aacFormat(_ audio: AssetWriterFeed.AudioFormat) throws -> CMFormatDescription {
        var description = AudioStreamBasicDescription(
            mSampleRate: Float64(audio.sampleRate), mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0,
            mFramesPerPacket: UInt32(AACPacketizer.samplesPerFrame), mBytesPerFrame: 0, mChannelsPerFrame: UInt32(audio.channels),
            mBitsPerChannel: 0, mReserved: 0)
        var format: CMAudioFormatDescription?
        let status = audio.audioSpecificConfig.withUnsafeBytes { cookie in
            CMAudioFormatDescriptionCreate(
                allocator: kCFAllocatorDefault, asbd: &description, layoutSize: 0, layout: nil, magicCookieSize: cookie.count,
                magicCookie: cookie.baseAddress, extensions: nil, formatDescriptionOut: &format)
        }
        guard status == noErr, let format else { throw AppleBackendError(operation: "CMAudioFormatDescriptionCreate", status: status) }
        return format
    }
}
#endif
