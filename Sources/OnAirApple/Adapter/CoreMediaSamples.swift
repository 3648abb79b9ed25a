// Apple-only: compiles to nothing on Linux except under the stub check (scripts/apple-stub-check.sh).
#if canImport(VideoToolbox) || ONAIR_APPLE_STUBS
#if canImport(VideoToolbox)
import CoreFoundation
import CoreMedia
import CoreVideo
#else
import AppleAPIStubs
#endif
import OnAirCore

/// CMSampleBuffers and format descriptions made from OnAir's bytes (for the decoder and the writer).
enum CoreMediaSamples {
    /// A ready sample buffer holding a copy of `bytes`, one sample with these times.
    static func sampleBuffer(
        _ bytes: [UInt8], format: CMFormatDescription, pts: MediaTime, dts: MediaTime, duration: MediaTime
    ) throws -> CMSampleBuffer {
        var block: CMBlockBuffer?
        var status = CMBlockBufferCreateWithMemoryBlock(
            allocator: kCFAllocatorDefault, memoryBlock: nil, blockLength: bytes.count, blockAllocator: kCFAllocatorDefault,
            customBlockSource: nil, offsetToData: 0, dataLength: bytes.count, flags: 0, blockBufferOut: &block)
        guard status == noErr, let block else {
            throw AppleBackendError(operation: "CMBlockBufferCreateWithMemoryBlock", status: status)
        }
        status = bytes.withUnsafeBytes { raw in
            CMBlockBufferReplaceDataBytes(
                with: raw.baseAddress!, blockBuffer: block, offsetIntoDestination: 0, dataLength: bytes.count)
        }
        guard status == noErr else { throw AppleBackendError(operation: "CMBlockBufferReplaceDataBytes", status: status) }
        var timing = CMSampleTimingInfo(
            duration: CoreFoundationValues.time(duration), presentationTimeStamp: CoreFoundationValues.time(pts),
            decodeTimeStamp: CoreFoundationValues.time(dts))
        var size = bytes.count
        var buffer: CMSampleBuffer?
        status = CMSampleBufferCreateReady(
            allocator: kCFAllocatorDefault, dataBuffer: block, formatDescription: format, sampleCount: 1,
            sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 1, sampleSizeArray: &size,
            sampleBufferOut: &buffer)
        guard status == noErr, let buffer else { throw AppleBackendError(operation: "CMSampleBufferCreateReady", status: status) }
        return buffer
    }

    /// An H.264 format description from parameter sets, for 4-byte AVCC samples.
    static func h264Format(parameterSets: [[UInt8]]) throws -> CMFormatDescription {
        var description: CMFormatDescription?
        let status = withPointers(to: parameterSets) { pointers, sizes in
            CMVideoFormatDescriptionCreateFromH264ParameterSets(
                allocator: kCFAllocatorDefault, parameterSetCount: parameterSets.count, parameterSetPointers: pointers,
                parameterSetSizes: sizes, nalUnitHeaderLength: 4, formatDescriptionOut: &description)
        }
        guard status == noErr, let description else {
            throw AppleBackendError(operation: "CMVideoFormatDescriptionCreateFromH264ParameterSets", status: status)
        }
        return description
    }

    /// An H.265 format description from the VPS, SPS and PPS (in that order), for 4-byte
    /// length-prefixed samples.
    static func hevcFormat(parameterSets: [[UInt8]]) throws -> CMFormatDescription {
        var description: CMFormatDescription?
        let status = withPointers(to: parameterSets) { pointers, sizes in
            CMVideoFormatDescriptionCreateFromHEVCParameterSets(
                allocator: kCFAllocatorDefault, parameterSetCount: parameterSets.count, parameterSetPointers: pointers,
                parameterSetSizes: sizes, nalUnitHeaderLength: 4, extensions: nil, formatDescriptionOut: &description)
        }
        guard status == noErr, let description else {
            throw AppleBackendError(operation: "CMVideoFormatDescriptionCreateFromHEVCParameterSets", status: status)
        }
        return description
    }

    /// Calls `body` with C arrays of pointers to and sizes of `sets` (alive for the call).
    /// Sets `key` to true on the buffer's one sample (NotSync: MP4's `stss` lists the others;
    /// DisplayImmediately: the player, not the layer's timebase, decides when a picture shows).
    static func attach(_ key: CFString, to buffer: CMSampleBuffer) {
        guard let attachments = CMSampleBufferGetSampleAttachmentsArray(buffer, createIfNecessary: true),
            CFArrayGetCount(attachments) > 0
        else { return }
        let dictionary = unsafeBitCast(CFArrayGetValueAtIndex(attachments, 0), to: CFMutableDictionary.self)
        CFDictionarySetValue(
            dictionary, Unmanaged.passUnretained(key).toOpaque(), Unmanaged.passUnretained(kCFBooleanTrue).toOpaque())
    }

    /// A ready sample buffer holding `image` (a decoded picture) at `pts`, shown as soon as it is enqueued.
    static func displayBuffer(_ image: CVImageBuffer, pts: MediaTime) throws -> CMSampleBuffer {
        var format: CMVideoFormatDescription?
        var status = CMVideoFormatDescriptionCreateForImageBuffer(
            allocator: kCFAllocatorDefault, imageBuffer: image, formatDescriptionOut: &format)
        guard status == noErr, let format else {
            throw AppleBackendError(operation: "CMVideoFormatDescriptionCreateForImageBuffer", status: status)
        }
        var timing = CMSampleTimingInfo(
            duration: .invalid, presentationTimeStamp: CoreFoundationValues.time(pts), decodeTimeStamp: .invalid)
        var buffer: CMSampleBuffer?
        status = CMSampleBufferCreateReadyWithImageBuffer(
            allocator: kCFAllocatorDefault, imageBuffer: image, formatDescription: format, sampleTiming: &timing, sampleBufferOut: &buffer)
        guard status == noErr, let buffer else {
            throw AppleBackendError(operation: "CMSampleBufferCreateReadyWithImageBuffer", status: status)
        }
        attach(kCMSampleAttachmentKey_DisplayImmediately, to: buffer)
        return buffer
    }

    private static func withPointers<R>(
        to sets: [[UInt8]], _ body: (UnsafePointer<UnsafePointer<UInt8>>, UnsafePointer<Int>) -> R
    ) -> R {
        let storage = sets.map { set -> UnsafeMutablePointer<UInt8> in
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(set.count, 1))
            copy.initialize(from: set, count: set.count)
            return copy
        }
        defer {
            for copy in storage { copy.deallocate() }
        }
        let pointers = storage.map { UnsafePointer($0) }
        let sizes = sets.map(\.count)
        return pointers.withUnsafeBufferPointer { pointerBuffer in
            sizes.withUnsafeBufferPointer { sizeBuffer in body(pointerBuffer.baseAddress!, sizeBuffer.baseAddress!) }
        }
    }
}
#endif
