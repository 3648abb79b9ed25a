// swift-format-ignore-file
// (The stubs keep the names, labels and layout of Apple's declarations.)
// STUB DECLARATIONS FOR THE STUB CHECK ONLY (scripts/apple-stub-check.sh) — NOT AN APPLE SDK.
//
// Exactly the Apple APIs that Sources/OnAirApple/Adapter uses, each declared with the Swift signature
// its documentation page gives (the page is named above it), so that the adapter can be type-checked
// on Linux: labels, argument order, optionality, pointer kinds, @Sendable handlers. Bodies do nothing.
// The module is named AppleAPIStubs, not like any Apple framework, is in no product, and is imported
// only under `-D ONAIR_APPLE_STUBS`. CF types are plain classes here (no toll-free bridging, no
// Foundation); constants are computed properties made with an internal initializer the adapter cannot
// call. Deviations from the SDK, kept to what Linux Swift can express:
//   - C function-pointer callback types (VTCompressionOutputCallback, AudioConverterComplexInputDataProc,
//     AudioQueueOutputCallback) are plain Swift function types (a Swift type cannot appear in a
//     @convention(c) type), so the check cannot see that the closures given as the last two capture
//     nothing (they must not: they read their state through the user-data pointer);
//     VTCompressionOutputCallback is only passed as nil.
//   - Imported C functions never warn about an unused result, so those returning a status here are
//     @discardableResult.
//   - A `class let` on a page (an imported global constant) is a `static let` here.
// Signatures marked "checked" were compared with the page's text in the docs corpus (the search
// tool's copy of developer.apple.com); those marked "not checked: page not in the docs corpus"
// follow the same pages from knowledge and must be confirmed by the first Mac build. Every
// declaration carries one mark or the other. The audit of 3 Dec 2026 compared 36 more (every declaration
// added for the microphone and PlaybackView, and the multi-argument functions of the encoders, the
// audio queue and the writer); it found one declaration made to fit: the capture notifications
// were the deprecated `NSNotification.Name.AVCaptureSessionRuntimeError` /
// `.AVCaptureDeviceWasDisconnected` under pages that give `AVCaptureSession.runtimeErrorNotification`
// and `AVCaptureDevice.wasDisconnectedNotification`; they now follow the pages.

import Foundation  // URL, as AVFoundation's declarations use it (Linux Foundation has no CF types)

// MARK: CoreFoundation

/// Page: https://developer.apple.com/documentation/corefoundation/cftyperef  (checked)
public typealias CFTypeRef = AnyObject
/// Page: https://developer.apple.com/documentation/corefoundation/cfindex  (checked)
public typealias CFIndex = Int
/// Page: https://developer.apple.com/documentation/corefoundation/cfallocator  (checked)
public final class CFAllocator { init() {} }
/// Page: https://developer.apple.com/documentation/corefoundation/kcfallocatordefault  (checked)
public var kCFAllocatorDefault: CFAllocator! { CFAllocator() }
/// Page: https://developer.apple.com/documentation/corefoundation/cfstring  (checked)
public final class CFString {
    let value: String
    init(_ value: String) { self.value = value }
}
/// Page: https://developer.apple.com/documentation/corefoundation/cfnumber  (checked)
public final class CFNumber { init() {} }
/// Page: https://developer.apple.com/documentation/corefoundation/cfnumbertype  (checked: `enum CFNumberType`; the cases are float64Type (page) and sInt64Type (kCFNumberSInt64Type); raw values from the C header, not on the page)
public enum CFNumberType: Int {
    case sInt64Type = 4
    case float64Type = 6
}
/// Page: https://developer.apple.com/documentation/corefoundation/cfnumbercreate(_:_:_:)  (checked)
public func CFNumberCreate(_ allocator: CFAllocator!, _ theType: CFNumberType, _ valuePtr: UnsafeRawPointer!) -> CFNumber! { CFNumber() }
/// Page: https://developer.apple.com/documentation/corefoundation/cfboolean  (checked)
public final class CFBoolean { init() {} }
/// Page: https://developer.apple.com/documentation/corefoundation/kcfbooleantrue  (checked: declaration as listed on the CFBoolean "Boolean Values" page)
public var kCFBooleanTrue: CFBoolean! { CFBoolean() }
/// Page: https://developer.apple.com/documentation/corefoundation/kcfbooleanfalse  (checked: declaration as listed on the CFBoolean "Boolean Values" page)
public var kCFBooleanFalse: CFBoolean! { CFBoolean() }
/// Page: https://developer.apple.com/documentation/corefoundation/cfarray  (checked)
public final class CFArray { init() {} }
/// Page: https://developer.apple.com/documentation/corefoundation/cfarraycallbacks  (checked)
public struct CFArrayCallBacks { init() {} }
/// Page: https://developer.apple.com/documentation/corefoundation/kcftypearraycallbacks  (checked)
public var kCFTypeArrayCallBacks: CFArrayCallBacks { CFArrayCallBacks() }
/// Page: https://developer.apple.com/documentation/corefoundation/cfarraycreate(_:_:_:_:)  (checked)
public func CFArrayCreate(
    _ allocator: CFAllocator!, _ values: UnsafeMutablePointer<UnsafeRawPointer?>!, _ numValues: CFIndex,
    _ callBacks: UnsafePointer<CFArrayCallBacks>!
) -> CFArray! { CFArray() }
/// Page: https://developer.apple.com/documentation/corefoundation/cfdictionary  (checked)
public final class CFDictionary { init() {} }
/// Page: https://developer.apple.com/documentation/corefoundation/cfdictionarykeycallbacks  (not checked: page not in the docs corpus)
public struct CFDictionaryKeyCallBacks { init() {} }
/// Page: https://developer.apple.com/documentation/corefoundation/cfdictionaryvaluecallbacks  (not checked: page not in the docs corpus)
public struct CFDictionaryValueCallBacks { init() {} }
/// Page: https://developer.apple.com/documentation/corefoundation/kcftypedictionarykeycallbacks  (checked)
public var kCFTypeDictionaryKeyCallBacks: CFDictionaryKeyCallBacks { CFDictionaryKeyCallBacks() }
/// Page: https://developer.apple.com/documentation/corefoundation/kcftypedictionaryvaluecallbacks  (checked)
public var kCFTypeDictionaryValueCallBacks: CFDictionaryValueCallBacks { CFDictionaryValueCallBacks() }
/// Page: https://developer.apple.com/documentation/corefoundation/cfdictionarycreate(_:_:_:_:_:_:)  (checked)
public func CFDictionaryCreate(
    _ allocator: CFAllocator!, _ keys: UnsafeMutablePointer<UnsafeRawPointer?>!,
    _ values: UnsafeMutablePointer<UnsafeRawPointer?>!, _ numValues: CFIndex,
    _ keyCallBacks: UnsafePointer<CFDictionaryKeyCallBacks>!, _ valueCallBacks: UnsafePointer<CFDictionaryValueCallBacks>!
) -> CFDictionary! { CFDictionary() }

// MARK: MacTypes
/// Page: https://developer.apple.com/documentation/kernel/osstatus  (not checked: page not in the docs corpus)
public typealias OSStatus = Int32
/// Page: https://developer.apple.com/documentation/kernel/ostype  (not checked: page not in the docs corpus)
public typealias OSType = UInt32
/// Page: https://developer.apple.com/documentation/kernel/fourcharcode  (not checked: page not in the docs corpus)
public typealias FourCharCode = UInt32
/// Page: https://developer.apple.com/documentation/kernel/noerr  (not checked: page not in the docs corpus)
public var noErr: Int { 0 }

// MARK: CoreMedia
/// Page: https://developer.apple.com/documentation/coremedia/cmtimevalue  (checked)
public typealias CMTimeValue = Int64
/// Page: https://developer.apple.com/documentation/coremedia/cmtimescale  (checked)
public typealias CMTimeScale = Int32
/// Page: https://developer.apple.com/documentation/coremedia/cmitemcount  (checked: fixed, the page gives `typealias CMItemCount = CFIndex`)
public typealias CMItemCount = CFIndex
/// Page: https://developer.apple.com/documentation/coremedia/cmblockbufferflags  (checked)
public typealias CMBlockBufferFlags = UInt32
/// Page: https://developer.apple.com/documentation/coremedia/cmvideocodectype  (checked)
public typealias CMVideoCodecType = FourCharCode
/// Page: https://developer.apple.com/documentation/coremedia/kcmvideocodectype_h264  (not checked: page not in the docs corpus)
public var kCMVideoCodecType_H264: CMVideoCodecType { 0x6176_6331 }
/// Page: https://developer.apple.com/documentation/coremedia/kcmvideocodectype_hevc  (not checked: page not in the docs corpus; 'hvc1')
public var kCMVideoCodecType_HEVC: CMVideoCodecType { 0x6876_6331 }
/// Page: https://developer.apple.com/documentation/coremedia/cmtime  (checked: `struct CMTime` (Sendable is this stub's conformance))
public struct CMTime: Sendable {
    /// Page: https://developer.apple.com/documentation/coremedia/cmtime/value  (checked)
    public var value: CMTimeValue
    /// Page: https://developer.apple.com/documentation/coremedia/cmtime/timescale  (checked)
    public var timescale: CMTimeScale
    /// Page: https://developer.apple.com/documentation/coremedia/cmtime/init(value:timescale:)  (checked)
    public init(value: CMTimeValue, timescale: CMTimeScale) {
        self.value = value
        self.timescale = timescale
    }
    /// Page: https://developer.apple.com/documentation/coremedia/cmtime/invalid  (checked)
    public static let invalid = CMTime(value: 0, timescale: 0)
    /// Page: https://developer.apple.com/documentation/coremedia/cmtime/isvalid  (not checked: page not in the docs corpus)
    public var isValid: Bool { timescale != 0 }
}
/// Page: https://developer.apple.com/documentation/coremedia/cmsampletiminginfo  (checked)
public struct CMSampleTimingInfo {
    /// Page: https://developer.apple.com/documentation/coremedia/cmsampletiminginfo/init(duration:presentationtimestamp:decodetimestamp:)  (checked)
    public init(duration: CMTime, presentationTimeStamp: CMTime, decodeTimeStamp: CMTime) {}
}
/// Page: https://developer.apple.com/documentation/coremedia/cmsamplebuffer  (checked)
public final class CMSampleBuffer { init() {} }
/// Page: https://developer.apple.com/documentation/coremedia/cmblockbuffer  (checked)
public final class CMBlockBuffer { init() {} }
/// Page: https://developer.apple.com/documentation/coremedia/cmformatdescription  (checked)
public final class CMFormatDescription { init() {} }
/// Page: https://developer.apple.com/documentation/coremedia/cmvideoformatdescription  (not checked: page not in the docs corpus)
public typealias CMVideoFormatDescription = CMFormatDescription
/// Page: https://developer.apple.com/documentation/coremedia/cmblockbuffercustomblocksource  (checked)
public struct CMBlockBufferCustomBlockSource { init() {} }
/// Page: https://developer.apple.com/documentation/coremedia/cmsamplebuffergetdatabuffer(_:)  (checked)
public func CMSampleBufferGetDataBuffer(_ sbuf: CMSampleBuffer) -> CMBlockBuffer? { nil }
/// Page: https://developer.apple.com/documentation/coremedia/cmsamplebuffergetformatdescription(_:)  (checked)
public func CMSampleBufferGetFormatDescription(_ sbuf: CMSampleBuffer) -> CMFormatDescription? { nil }
/// Page: https://developer.apple.com/documentation/coremedia/cmsamplebuffergetpresentationtimestamp(_:)  (checked)
public func CMSampleBufferGetPresentationTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { .invalid }
/// Page: https://developer.apple.com/documentation/coremedia/cmsamplebuffergetdecodetimestamp(_:)  (checked)
public func CMSampleBufferGetDecodeTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { .invalid }
/// Page: https://developer.apple.com/documentation/coremedia/cmsamplebuffergetduration(_:)  (checked)
public func CMSampleBufferGetDuration(_ sbuf: CMSampleBuffer) -> CMTime { .invalid }
/// Page: https://developer.apple.com/documentation/coremedia/cmblockbuffergetdatalength(_:)  (checked)
public func CMBlockBufferGetDataLength(_ theBuffer: CMBlockBuffer) -> Int { 0 }
/// Page: https://developer.apple.com/documentation/coremedia/cmblockbuffercopydatabytes(_:atoffset:datalength:destination:)  (checked)
@discardableResult
public func CMBlockBufferCopyDataBytes(
    _ theSourceBuffer: CMBlockBuffer, atOffset offsetToData: Int, dataLength: Int, destination: UnsafeMutableRawPointer
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/coremedia/cmblockbufferreplacedatabytes(with:blockbuffer:offsetintodestination:datalength:)  (checked)
@discardableResult
public func CMBlockBufferReplaceDataBytes(
    with sourceBytes: UnsafeRawPointer, blockBuffer destinationBuffer: CMBlockBuffer, offsetIntoDestination: Int, dataLength: Int
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/coremedia/cmblockbuffercreatewithmemoryblock(allocator:memoryblock:blocklength:blockallocator:customblocksource:offsettodata:datalength:flags:blockbufferout:)  (checked)
@discardableResult
public func CMBlockBufferCreateWithMemoryBlock(
    allocator structureAllocator: CFAllocator?, memoryBlock: UnsafeMutableRawPointer?, blockLength: Int,
    blockAllocator: CFAllocator?, customBlockSource: UnsafePointer<CMBlockBufferCustomBlockSource>?, offsetToData: Int,
    dataLength: Int, flags: CMBlockBufferFlags, blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/coremedia/cmsamplebuffercreateready(allocator:databuffer:formatdescription:samplecount:sampletimingentrycount:sampletimingarray:samplesizeentrycount:samplesizearray:samplebufferout:)  (checked)
@discardableResult
public func CMSampleBufferCreateReady(
    allocator: CFAllocator?, dataBuffer: CMBlockBuffer?, formatDescription: CMFormatDescription?,
    sampleCount numSamples: CMItemCount, sampleTimingEntryCount numSampleTimingEntries: CMItemCount,
    sampleTimingArray: UnsafePointer<CMSampleTimingInfo>?, sampleSizeEntryCount numSampleSizeEntries: CMItemCount,
    sampleSizeArray: UnsafePointer<Int>?, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/coremedia/cmvideoformatdescriptiongeth264parametersetatindex(_:parametersetindex:parametersetpointerout:parametersetsizeout:parametersetcountout:nalunitheaderlengthout:)  (checked)
@discardableResult
public func CMVideoFormatDescriptionGetH264ParameterSetAtIndex(
    _ videoDesc: CMFormatDescription, parameterSetIndex: Int,
    parameterSetPointerOut: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, parameterSetSizeOut: UnsafeMutablePointer<Int>?,
    parameterSetCountOut: UnsafeMutablePointer<Int>?, nalUnitHeaderLengthOut NALUnitHeaderLengthOut: UnsafeMutablePointer<Int32>?
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/coremedia/cmvideoformatdescriptiongethevcparametersetatindex(_:parametersetindex:parametersetpointerout:parametersetsizeout:parametersetcountout:nalunitheaderlengthout:)  (checked)
@discardableResult
public func CMVideoFormatDescriptionGetHEVCParameterSetAtIndex(
    _ videoDesc: CMFormatDescription, parameterSetIndex: Int,
    parameterSetPointerOut: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, parameterSetSizeOut: UnsafeMutablePointer<Int>?,
    parameterSetCountOut: UnsafeMutablePointer<Int>?, nalUnitHeaderLengthOut NALUnitHeaderLengthOut: UnsafeMutablePointer<Int32>?
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/coremedia/cmvideoformatdescriptioncreatefromh264parametersets(allocator:parametersetcount:parametersetpointers:parametersetsizes:nalunitheaderlength:formatdescriptionout:)  (checked)
@discardableResult
public func CMVideoFormatDescriptionCreateFromH264ParameterSets(
    allocator: CFAllocator?, parameterSetCount: Int, parameterSetPointers: UnsafePointer<UnsafePointer<UInt8>>,
    parameterSetSizes: UnsafePointer<Int>, nalUnitHeaderLength NALUnitHeaderLength: Int32,
    formatDescriptionOut: UnsafeMutablePointer<CMFormatDescription?>
) -> OSStatus { 0 }

/// Page: https://developer.apple.com/documentation/coremedia/cmvideoformatdescriptioncreatefromhevcparametersets(allocator:parametersetcount:parametersetpointers:parametersetsizes:nalunitheaderlength:extensions:formatdescriptionout:)  (checked)
@discardableResult
public func CMVideoFormatDescriptionCreateFromHEVCParameterSets(
    allocator: CFAllocator?, parameterSetCount: Int, parameterSetPointers: UnsafePointer<UnsafePointer<UInt8>>,
    parameterSetSizes: UnsafePointer<Int>, nalUnitHeaderLength NALUnitHeaderLength: Int32, extensions: CFDictionary?,
    formatDescriptionOut: UnsafeMutablePointer<CMFormatDescription?>
) -> OSStatus { 0 }

// MARK: CoreVideo
/// Page: https://developer.apple.com/documentation/corevideo/cvbuffer  (checked)
public final class CVBuffer { init() {} }
/// Page: https://developer.apple.com/documentation/corevideo/cvimagebuffer  (checked)
public typealias CVImageBuffer = CVBuffer
/// Page: https://developer.apple.com/documentation/corevideo/cvpixelbuffer  (checked)
public typealias CVPixelBuffer = CVImageBuffer
/// Page: https://developer.apple.com/documentation/corevideo/cvreturn  (checked)
public typealias CVReturn = Int32
/// Page: https://developer.apple.com/documentation/corevideo/kcvreturnsuccess  (checked)
public var kCVReturnSuccess: CVReturn { 0 }
/// Page: https://developer.apple.com/documentation/corevideo/cvoptionflags  (checked)
public typealias CVOptionFlags = UInt64
/// Page: https://developer.apple.com/documentation/corevideo/kcvpixelformattype_420ypcbcr8biplanarvideorange  (not checked: page not in the docs corpus)
public var kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: OSType { 0x3432_3076 }
/// Page: https://developer.apple.com/documentation/corevideo/kcvpixelformattype_32bgra  (not checked: page not in the docs corpus)
public var kCVPixelFormatType_32BGRA: OSType { 0x4247_5241 }
/// Page: https://developer.apple.com/documentation/corevideo/kcvpixelbufferpixelformattypekey  (checked)
public var kCVPixelBufferPixelFormatTypeKey: CFString { CFString("PixelFormatType") }
/// Page: https://developer.apple.com/documentation/corevideo/cvpixelbufferlockflags  (checked)
public struct CVPixelBufferLockFlags: OptionSet, Sendable {
    public let rawValue: CVOptionFlags
    public init(rawValue: CVOptionFlags) { self.rawValue = rawValue }
    /// Page: https://developer.apple.com/documentation/corevideo/cvpixelbufferlockflags/readonly  (checked: the page gives `static var readOnly: CVPixelBufferLockFlags { get }`; a `static let` here, same use)
    public static let readOnly = CVPixelBufferLockFlags(rawValue: 1)
}
/// Page: https://developer.apple.com/documentation/corevideo/cvpixelbuffercreate(_:_:_:_:_:_:)  (checked)
public func CVPixelBufferCreate(
    _ allocator: CFAllocator?, _ width: Int, _ height: Int, _ pixelFormatType: OSType, _ pixelBufferAttributes: CFDictionary?,
    _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn { 0 }
/// Page: https://developer.apple.com/documentation/corevideo/cvpixelbufferlockbaseaddress(_:_:)  (checked)
@discardableResult
public func CVPixelBufferLockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ lockFlags: CVPixelBufferLockFlags) -> CVReturn { 0 }
/// Page: https://developer.apple.com/documentation/corevideo/cvpixelbufferunlockbaseaddress(_:_:)  (checked)
@discardableResult
public func CVPixelBufferUnlockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ unlockFlags: CVPixelBufferLockFlags) -> CVReturn { 0 }
/// Page: https://developer.apple.com/documentation/corevideo/cvpixelbuffergetbaseaddress(_:)  (checked)
public func CVPixelBufferGetBaseAddress(_ pixelBuffer: CVPixelBuffer) -> UnsafeMutableRawPointer? { nil }
/// Page: https://developer.apple.com/documentation/corevideo/cvpixelbuffergetbytesperrow(_:)  (checked)
public func CVPixelBufferGetBytesPerRow(_ pixelBuffer: CVPixelBuffer) -> Int { 0 }
/// Page: https://developer.apple.com/documentation/corevideo/cvpixelbuffergetbaseaddressofplane(_:_:)  (checked)
public func CVPixelBufferGetBaseAddressOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> UnsafeMutableRawPointer? { nil }
/// Page: https://developer.apple.com/documentation/corevideo/cvpixelbuffergetbytesperrowofplane(_:_:)  (checked)
public func CVPixelBufferGetBytesPerRowOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int { 0 }
/// Page: https://developer.apple.com/documentation/corevideo/cvpixelbuffergetwidth(_:)  (not checked: page not in the docs corpus)
public func CVPixelBufferGetWidth(_ pixelBuffer: CVPixelBuffer) -> Int { 0 }
/// Page: https://developer.apple.com/documentation/corevideo/cvpixelbuffergetheight(_:)  (checked)
public func CVPixelBufferGetHeight(_ pixelBuffer: CVPixelBuffer) -> Int { 0 }

// MARK: CoreAudioTypes / AudioToolbox
/// Page: https://developer.apple.com/documentation/coreaudiotypes/audioformatid  (checked)
public typealias AudioFormatID = UInt32
/// Page: https://developer.apple.com/documentation/coreaudiotypes/audioformatflags  (checked)
public typealias AudioFormatFlags = UInt32
/// Page: https://developer.apple.com/documentation/coreaudiotypes/kaudioformatlinearpcm  (checked)
public var kAudioFormatLinearPCM: AudioFormatID { 0x6C70_636D }
/// Page: https://developer.apple.com/documentation/coreaudiotypes/kaudioformatmpeg4aac  (not checked: page not in the docs corpus)
public var kAudioFormatMPEG4AAC: AudioFormatID { 0x6161_6320 }
/// Page: https://developer.apple.com/documentation/coreaudiotypes/kaudioformatflagisfloat  (not checked: page not in the docs corpus)
public var kAudioFormatFlagIsFloat: AudioFormatFlags { 1 }
/// Page: https://developer.apple.com/documentation/coreaudiotypes/kaudioformatflagispacked  (checked)
public var kAudioFormatFlagIsPacked: AudioFormatFlags { 8 }
/// Page: https://developer.apple.com/documentation/coreaudiotypes/audiostreambasicdescription  (checked)
public struct AudioStreamBasicDescription {
    public var mSampleRate: Float64
    public var mFormatID: AudioFormatID
    public var mFormatFlags: AudioFormatFlags
    public var mBytesPerPacket: UInt32
    public var mFramesPerPacket: UInt32
    public var mBytesPerFrame: UInt32
    public var mChannelsPerFrame: UInt32
    public var mBitsPerChannel: UInt32
    public var mReserved: UInt32
    /// Page: https://developer.apple.com/documentation/coreaudiotypes/audiostreambasicdescription/init(msamplerate:mformatid:mformatflags:mbytesperpacket:mframesperpacket:mbytesperframe:mchannelsperframe:mbitsperchannel:mreserved:)  (not checked: page not in the docs corpus)
    public init(
        mSampleRate: Float64, mFormatID: AudioFormatID, mFormatFlags: AudioFormatFlags, mBytesPerPacket: UInt32,
        mFramesPerPacket: UInt32, mBytesPerFrame: UInt32, mChannelsPerFrame: UInt32, mBitsPerChannel: UInt32, mReserved: UInt32
    ) {
        self.mSampleRate = mSampleRate
        self.mFormatID = mFormatID
        self.mFormatFlags = mFormatFlags
        self.mBytesPerPacket = mBytesPerPacket
        self.mFramesPerPacket = mFramesPerPacket
        self.mBytesPerFrame = mBytesPerFrame
        self.mChannelsPerFrame = mChannelsPerFrame
        self.mBitsPerChannel = mBitsPerChannel
        self.mReserved = mReserved
    }
}
/// Page: https://developer.apple.com/documentation/coreaudiotypes/audiostreampacketdescription  (checked)
public struct AudioStreamPacketDescription {
    /// Page: https://developer.apple.com/documentation/coreaudiotypes/audiostreampacketdescription/init()  (not checked: page not in the docs corpus)
    public init() {}
}
/// Page: https://developer.apple.com/documentation/coreaudiotypes/audiobuffer  (checked)
public struct AudioBuffer {
    public var mNumberChannels: UInt32
    public var mDataByteSize: UInt32
    public var mData: UnsafeMutableRawPointer?
    /// Page: https://developer.apple.com/documentation/coreaudiotypes/audiobuffer/init(mnumberchannels:mdatabytesize:mdata:)  (not checked: page not in the docs corpus)
    public init(mNumberChannels: UInt32, mDataByteSize: UInt32, mData: UnsafeMutableRawPointer?) {
        self.mNumberChannels = mNumberChannels
        self.mDataByteSize = mDataByteSize
        self.mData = mData
    }
}
/// Page: https://developer.apple.com/documentation/coreaudiotypes/audiobufferlist  (checked)
public struct AudioBufferList {
    public var mNumberBuffers: UInt32
    public var mBuffers: AudioBuffer
    /// Page: https://developer.apple.com/documentation/coreaudiotypes/audiobufferlist/init(mnumberbuffers:mbuffers:)  (not checked: page not in the docs corpus)
    public init(mNumberBuffers: UInt32, mBuffers: AudioBuffer) {
        self.mNumberBuffers = mNumberBuffers
        self.mBuffers = mBuffers
    }
}
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioconverterref  (not checked: page not in the docs corpus)
public typealias AudioConverterRef = OpaquePointer
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioconverterpropertyid  (not checked: page not in the docs corpus)
public typealias AudioConverterPropertyID = UInt32
/// Page: https://developer.apple.com/documentation/audiotoolbox/kaudioconverterencodebitrate  (checked)
public var kAudioConverterEncodeBitRate: AudioConverterPropertyID { 0x6272_6174 }
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioconverternew(_:_:_:)  (checked)
public func AudioConverterNew(
    _ inSourceFormat: UnsafePointer<AudioStreamBasicDescription>, _ inDestinationFormat: UnsafePointer<AudioStreamBasicDescription>,
    _ outAudioConverter: UnsafeMutablePointer<AudioConverterRef?>
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioconvertersetproperty(_:_:_:_:)  (checked)
public func AudioConverterSetProperty(
    _ inAudioConverter: AudioConverterRef, _ inPropertyID: AudioConverterPropertyID, _ inPropertyDataSize: UInt32,
    _ inPropertyData: UnsafeRawPointer
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioconverterdispose(_:)  (checked)
@discardableResult
public func AudioConverterDispose(_ inAudioConverter: AudioConverterRef) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioconvertercomplexinputdataproc  (checked; a C function pointer in the SDK)
public typealias AudioConverterComplexInputDataProc = (
    AudioConverterRef, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<AudioBufferList>,
    UnsafeMutablePointer<UnsafeMutablePointer<AudioStreamPacketDescription>?>?, UnsafeMutableRawPointer?
) -> OSStatus
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioconverterfillcomplexbuffer(_:_:_:_:_:_:)  (checked)
public func AudioConverterFillComplexBuffer(
    _ inAudioConverter: AudioConverterRef, _ inInputDataProc: AudioConverterComplexInputDataProc,
    _ inInputDataProcUserData: UnsafeMutableRawPointer?, _ ioOutputDataPacketSize: UnsafeMutablePointer<UInt32>,
    _ outOutputData: UnsafeMutablePointer<AudioBufferList>, _ outPacketDescription: UnsafeMutablePointer<AudioStreamPacketDescription>?
) -> OSStatus { 0 }

// MARK: VideoToolbox
/// Page: https://developer.apple.com/documentation/videotoolbox/vtsession  (checked)
public typealias VTSession = CFTypeRef
/// Page: https://developer.apple.com/documentation/videotoolbox/vtcompressionsession  (checked)
public final class VTCompressionSession { init() {} }
/// Page: https://developer.apple.com/documentation/videotoolbox/vtdecompressionsession  (checked)
public final class VTDecompressionSession { init() {} }
/// Page: https://developer.apple.com/documentation/videotoolbox/vtencodeinfoflags  (checked)
public struct VTEncodeInfoFlags: OptionSet {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}
/// Page: https://developer.apple.com/documentation/videotoolbox/vtdecodeinfoflags  (checked)
public struct VTDecodeInfoFlags: OptionSet {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}
/// Page: https://developer.apple.com/documentation/videotoolbox/vtdecodeframeflags  (checked)
public struct VTDecodeFrameFlags: OptionSet {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}
/// Page: https://developer.apple.com/documentation/videotoolbox/vtcompressionoutputcallback  (checked; a C function pointer in the SDK)
public typealias VTCompressionOutputCallback = (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, OSStatus, VTEncodeInfoFlags, CMSampleBuffer?) -> Void
/// Page: https://developer.apple.com/documentation/videotoolbox/vtcompressionoutputhandler  (checked)
public typealias VTCompressionOutputHandler = @Sendable (OSStatus, VTEncodeInfoFlags, CMSampleBuffer?) -> Void
/// Page: https://developer.apple.com/documentation/videotoolbox/vtdecompressionoutputhandler  (checked)
public typealias VTDecompressionOutputHandler = @Sendable (OSStatus, VTDecodeInfoFlags, CVImageBuffer?, CMTime, CMTime) -> Void
/// Page: https://developer.apple.com/documentation/videotoolbox/vtdecompressionoutputcallbackrecord  (checked)
public struct VTDecompressionOutputCallbackRecord { init() {} }
/// Page: https://developer.apple.com/documentation/videotoolbox/vtcompressionsessioncreate(allocator:width:height:codectype:encoderspecification:imagebufferattributes:compresseddataallocator:outputcallback:refcon:compressionsessionout:)  (checked)
public func VTCompressionSessionCreate(
    allocator: CFAllocator?, width: Int32, height: Int32, codecType: CMVideoCodecType, encoderSpecification: CFDictionary?,
    imageBufferAttributes sourceImageBufferAttributes: CFDictionary?, compressedDataAllocator: CFAllocator?,
    outputCallback: VTCompressionOutputCallback?, refcon outputCallbackRefCon: UnsafeMutableRawPointer?,
    compressionSessionOut: UnsafeMutablePointer<VTCompressionSession?>
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/videotoolbox/vtsessionsetproperty(_:key:value:)  (checked)
public func VTSessionSetProperty(_ session: VTSession, key propertyKey: CFString, value propertyValue: CFTypeRef?) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/videotoolbox/vtcompressionsessionpreparetoencodeframes(_:)  (checked)
public func VTCompressionSessionPrepareToEncodeFrames(_ session: VTCompressionSession) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/videotoolbox/vtcompressionsessionencodeframe(_:imagebuffer:presentationtimestamp:duration:frameproperties:infoflagsout:outputhandler:)  (checked)
public func VTCompressionSessionEncodeFrame(
    _ session: VTCompressionSession, imageBuffer: CVImageBuffer, presentationTimeStamp: CMTime, duration: CMTime,
    frameProperties: CFDictionary?, infoFlagsOut: UnsafeMutablePointer<VTEncodeInfoFlags>?,
    outputHandler: @escaping VTCompressionOutputHandler
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/videotoolbox/vtcompressionsessioncompleteframes(_:untilpresentationtimestamp:)  (checked)
public func VTCompressionSessionCompleteFrames(
    _ session: VTCompressionSession, untilPresentationTimeStamp completeUntilPresentationTimeStamp: CMTime
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/videotoolbox/vtcompressionsessioninvalidate(_:)  (checked)
public func VTCompressionSessionInvalidate(_ session: VTCompressionSession) {}
/// Page: https://developer.apple.com/documentation/videotoolbox/vtdecompressionsessioncreate(allocator:formatdescription:decoderspecification:imagebufferattributes:outputcallback:decompressionsessionout:)  (checked)
public func VTDecompressionSessionCreate(
    allocator: CFAllocator?, formatDescription videoFormatDescription: CMVideoFormatDescription,
    decoderSpecification videoDecoderSpecification: CFDictionary?,
    imageBufferAttributes destinationImageBufferAttributes: CFDictionary?,
    outputCallback: UnsafePointer<VTDecompressionOutputCallbackRecord>?,
    decompressionSessionOut: UnsafeMutablePointer<VTDecompressionSession?>
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/videotoolbox/vtdecompressionsessiondecodeframe(_:samplebuffer:flags:infoflagsout:outputhandler:)  (checked)
public func VTDecompressionSessionDecodeFrame(
    _ session: VTDecompressionSession, sampleBuffer: CMSampleBuffer, flags decodeFlags: VTDecodeFrameFlags,
    infoFlagsOut: UnsafeMutablePointer<VTDecodeInfoFlags>?, outputHandler: @escaping VTDecompressionOutputHandler
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/videotoolbox/vtdecompressionsessioncanacceptformatdescription(_:formatdescription:)  (checked)
public func VTDecompressionSessionCanAcceptFormatDescription(
    _ session: VTDecompressionSession, formatDescription newFormatDesc: CMFormatDescription
) -> Bool { false }
/// Page: https://developer.apple.com/documentation/videotoolbox/vtdecompressionsessionwaitforasynchronousframes(_:)  (checked)
@discardableResult
public func VTDecompressionSessionWaitForAsynchronousFrames(_ session: VTDecompressionSession) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/videotoolbox/vtdecompressionsessioninvalidate(_:)  (checked)
public func VTDecompressionSessionInvalidate(_ session: VTDecompressionSession) {}
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtencodeframeoptionkey_forcekeyframe  (checked)
public var kVTEncodeFrameOptionKey_ForceKeyFrame: CFString { CFString("ForceKeyFrame") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtvideoencoderspecification_requirehardwareacceleratedvideoencoder  (checked: `let …: CFString`; the page gives iOS 17.4 (also iPadOS/Mac Catalyst/tvOS 17.4, macOS 10.9), as the stub's iOS 17.4 availability)
@available(iOS 17.4, *)
public var kVTVideoEncoderSpecification_RequireHardwareAcceleratedVideoEncoder: CFString { CFString("RequireHardwareAcceleratedVideoEncoder") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtcompressionpropertykey_realtime  (checked)
public var kVTCompressionPropertyKey_RealTime: CFString { CFString("RealTime") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtcompressionpropertykey_profilelevel  (checked)
public var kVTCompressionPropertyKey_ProfileLevel: CFString { CFString("ProfileLevel") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtcompressionpropertykey_allowframereordering  (checked)
public var kVTCompressionPropertyKey_AllowFrameReordering: CFString { CFString("AllowFrameReordering") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtcompressionpropertykey_maxkeyframeinterval  (checked)
public var kVTCompressionPropertyKey_MaxKeyFrameInterval: CFString { CFString("MaxKeyFrameInterval") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtcompressionpropertykey_maxkeyframeintervalduration  (checked)
public var kVTCompressionPropertyKey_MaxKeyFrameIntervalDuration: CFString { CFString("MaxKeyFrameIntervalDuration") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtcompressionpropertykey_expectedframerate  (checked)
public var kVTCompressionPropertyKey_ExpectedFrameRate: CFString { CFString("ExpectedFrameRate") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtcompressionpropertykey_averagebitrate  (checked)
public var kVTCompressionPropertyKey_AverageBitRate: CFString { CFString("AverageBitRate") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtcompressionpropertykey_dataratelimits  (checked)
public var kVTCompressionPropertyKey_DataRateLimits: CFString { CFString("DataRateLimits") }

// kVTProfileLevel_H264_… (the plan's names after the prefix)
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_baseline_1_3  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Baseline_1_3: CFString { CFString("H264_Baseline_1_3") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_baseline_3_0  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Baseline_3_0: CFString { CFString("H264_Baseline_3_0") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_baseline_3_1  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Baseline_3_1: CFString { CFString("H264_Baseline_3_1") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_baseline_3_2  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Baseline_3_2: CFString { CFString("H264_Baseline_3_2") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_baseline_4_0  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Baseline_4_0: CFString { CFString("H264_Baseline_4_0") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_baseline_4_1  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Baseline_4_1: CFString { CFString("H264_Baseline_4_1") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_baseline_4_2  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Baseline_4_2: CFString { CFString("H264_Baseline_4_2") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_baseline_5_0  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Baseline_5_0: CFString { CFString("H264_Baseline_5_0") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_baseline_5_1  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Baseline_5_1: CFString { CFString("H264_Baseline_5_1") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_baseline_5_2  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Baseline_5_2: CFString { CFString("H264_Baseline_5_2") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_baseline_autolevel  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Baseline_AutoLevel: CFString { CFString("H264_Baseline_AutoLevel") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_main_3_0  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Main_3_0: CFString { CFString("H264_Main_3_0") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_main_3_1  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Main_3_1: CFString { CFString("H264_Main_3_1") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_main_3_2  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Main_3_2: CFString { CFString("H264_Main_3_2") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_main_4_0  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Main_4_0: CFString { CFString("H264_Main_4_0") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_main_4_1  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Main_4_1: CFString { CFString("H264_Main_4_1") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_main_4_2  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Main_4_2: CFString { CFString("H264_Main_4_2") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_main_5_0  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Main_5_0: CFString { CFString("H264_Main_5_0") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_main_5_1  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Main_5_1: CFString { CFString("H264_Main_5_1") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_main_5_2  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Main_5_2: CFString { CFString("H264_Main_5_2") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_main_autolevel  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_Main_AutoLevel: CFString { CFString("H264_Main_AutoLevel") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_high_3_0  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_High_3_0: CFString { CFString("H264_High_3_0") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_high_3_1  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_High_3_1: CFString { CFString("H264_High_3_1") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_high_3_2  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_High_3_2: CFString { CFString("H264_High_3_2") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_high_4_0  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_High_4_0: CFString { CFString("H264_High_4_0") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_high_4_1  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_High_4_1: CFString { CFString("H264_High_4_1") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_high_4_2  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_High_4_2: CFString { CFString("H264_High_4_2") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_high_5_0  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_High_5_0: CFString { CFString("H264_High_5_0") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_high_5_1  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_High_5_1: CFString { CFString("H264_High_5_1") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_high_5_2  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_High_5_2: CFString { CFString("H264_High_5_2") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_h264_high_autolevel  (not checked: page not in the docs corpus)
public var kVTProfileLevel_H264_High_AutoLevel: CFString { CFString("H264_High_AutoLevel") }
/// Page: https://developer.apple.com/documentation/videotoolbox/kvtprofilelevel_hevc_main_autolevel  (checked)
public var kVTProfileLevel_HEVC_Main_AutoLevel: CFString { CFString("HEVC_Main_AutoLevel") }

// MARK: AVFoundation (the AVAssetWriter sink)
/// Page: https://developer.apple.com/documentation/avfoundation/avfiletype  (checked)
public struct AVFileType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Page: https://developer.apple.com/documentation/avfoundation/avfiletype/mp4  (checked)
    public static let mp4 = AVFileType(rawValue: "public.mpeg-4")
    /// Page: https://developer.apple.com/documentation/avfoundation/avfiletype/mov  (checked)
    public static let mov = AVFileType(rawValue: "com.apple.quicktime-movie")
}
/// Page: https://developer.apple.com/documentation/avfoundation/avmediatype  (checked)
public struct AVMediaType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Page: https://developer.apple.com/documentation/avfoundation/avmediatype/video  (not checked: page not in the docs corpus)
    public static let video = AVMediaType(rawValue: "vide")
    /// Page: https://developer.apple.com/documentation/avfoundation/avmediatype/audio  (checked)
    public static let audio = AVMediaType(rawValue: "soun")
}
/// Page: https://developer.apple.com/documentation/avfoundation/avassetwriter  (checked)
open class AVAssetWriter {
    /// Page: https://developer.apple.com/documentation/avfoundation/avassetwriter/status-swift.enum  (checked: cases unknown, writing, completed, failed, cancelled)
    public enum Status: Int, Sendable {
        case unknown = 0, writing, completed, failed, cancelled
    }
    /// Page: https://developer.apple.com/documentation/avfoundation/avassetwriter/init(outputurl:filetype:)  (checked)
    public init(outputURL: URL, fileType outputFileType: AVFileType) throws {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avassetwriter/moviefragmentinterval  (checked)
    open var movieFragmentInterval: CMTime = .invalid
    /// Page: https://developer.apple.com/documentation/avfoundation/avassetwriter/status-swift.property  (checked)
    open var status: AVAssetWriter.Status { .unknown }
    /// Page: https://developer.apple.com/documentation/avfoundation/avassetwriter/error  (checked)
    open var error: (any Error)? { nil }
    /// Page: https://developer.apple.com/documentation/avfoundation/avassetwriter/canadd(_:)-(avassetwriterinput)  (checked: the corpus stores the page as avassetwriter/canadd(_:)-6al7j)
    open func canAdd(_ input: AVAssetWriterInput) -> Bool { false }
    /// Page: https://developer.apple.com/documentation/avfoundation/avassetwriter/add(_:)-(avassetwriterinput)  (checked: the corpus stores the page as avassetwriter/add(_:)-4c4d0)
    open func add(_ input: AVAssetWriterInput) {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avassetwriter/startwriting()  (checked)
    open func startWriting() -> Bool { false }
    /// Page: https://developer.apple.com/documentation/avfoundation/avassetwriter/startsession(atsourcetime:)  (checked)
    open func startSession(atSourceTime startTime: CMTime) {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avassetwriter/finishwriting(completionhandler:)  (checked)
    open func finishWriting(completionHandler handler: @escaping @Sendable () -> Void) {}
}
/// Page: https://developer.apple.com/documentation/avfoundation/avassetwriterinput  (checked)
open class AVAssetWriterInput {
    /// Page: https://developer.apple.com/documentation/avfoundation/avassetwriterinput/init(mediatype:outputsettings:sourceformathint:)  (checked)
    public init(mediaType: AVMediaType, outputSettings: [String: Any]?, sourceFormatHint: CMFormatDescription?) {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avassetwriterinput/expectsmediadatainrealtime  (checked)
    open var expectsMediaDataInRealTime: Bool = false
    /// Page: https://developer.apple.com/documentation/avfoundation/avassetwriterinput/isreadyformoremediadata  (checked)
    open var isReadyForMoreMediaData: Bool { false }
    /// Page: https://developer.apple.com/documentation/avfoundation/avassetwriterinput/append(_:)  (checked)
    open func append(_ sampleBuffer: CMSampleBuffer) -> Bool { false }
    /// Page: https://developer.apple.com/documentation/avfoundation/avassetwriterinput/markasfinished()  (checked)
    open func markAsFinished() {}
}
/// Page: https://developer.apple.com/documentation/coremedia/cmaudioformatdescription  (not checked: page not in the docs corpus)
public typealias CMAudioFormatDescription = CMFormatDescription
/// Page: https://developer.apple.com/documentation/coreaudiotypes/audiochannellayout  (checked: `struct AudioChannelLayout`; its fields are not used here and left out)
public struct AudioChannelLayout { init() {} }
/// Page: https://developer.apple.com/documentation/coremedia/cmaudioformatdescriptioncreate(allocator:asbd:layoutsize:layout:magiccookiesize:magiccookie:extensions:formatdescriptionout:)  (checked)
public func CMAudioFormatDescriptionCreate(
    allocator: CFAllocator?, asbd: UnsafePointer<AudioStreamBasicDescription>, layoutSize: Int,
    layout: UnsafePointer<AudioChannelLayout>?, magicCookieSize: Int, magicCookie: UnsafeRawPointer?, extensions: CFDictionary?,
    formatDescriptionOut: UnsafeMutablePointer<CMAudioFormatDescription?>
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/coremedia/cmsamplebuffergetsampleattachmentsarray(_:createifnecessary:)  (checked)
public func CMSampleBufferGetSampleAttachmentsArray(_ sbuf: CMSampleBuffer, createIfNecessary: Bool) -> CFArray? { nil }
/// Page: https://developer.apple.com/documentation/coremedia/kcmsampleattachmentkey_notsync  (checked: `let` on the page)
public var kCMSampleAttachmentKey_NotSync: CFString { CFString("NotSync") }
/// Page: https://developer.apple.com/documentation/corefoundation/cfmutabledictionary  (checked: `class CFMutableDictionary`)
public final class CFMutableDictionary { init() {} }
/// Page: https://developer.apple.com/documentation/corefoundation/cfarraygetcount(_:)  (checked)
public func CFArrayGetCount(_ theArray: CFArray!) -> CFIndex { 0 }
/// Page: https://developer.apple.com/documentation/corefoundation/cfarraygetvalueatindex(_:_:)  (checked)
public func CFArrayGetValueAtIndex(_ theArray: CFArray!, _ idx: CFIndex) -> UnsafeRawPointer! { nil }
/// Page: https://developer.apple.com/documentation/corefoundation/cfdictionarysetvalue(_:_:_:)  (checked)
public func CFDictionarySetValue(_ theDict: CFMutableDictionary!, _ key: UnsafeRawPointer!, _ value: UnsafeRawPointer!) {}

// MARK: AudioToolbox audio queue (the sound output)
/// Page: https://developer.apple.com/documentation/corefoundation/cfrunloop  (not checked: page not in the docs corpus)
public final class CFRunLoop { init() {} }
/// Page: https://developer.apple.com/documentation/coreaudiotypes/audiotimestamp  (checked: `struct AudioTimeStamp`; its fields are not used here and left out)
public struct AudioTimeStamp { init() {} }
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioqueueref  (checked)
public typealias AudioQueueRef = OpaquePointer
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioqueuebuffer  (checked: `struct AudioQueueBuffer`; only the fields used here)
public struct AudioQueueBuffer {
    /// Page: https://developer.apple.com/documentation/audiotoolbox/audioqueuebuffer/maudiodatabytescapacity  (checked: `var … { get }` on the page, a `let` here)
    public let mAudioDataBytesCapacity: UInt32
    /// Page: https://developer.apple.com/documentation/audiotoolbox/audioqueuebuffer/maudiodata  (checked: `var … { get }` on the page, a `let` here)
    public let mAudioData: UnsafeMutableRawPointer
    /// Page: https://developer.apple.com/documentation/audiotoolbox/audioqueuebuffer/maudiodatabytesize  (checked)
    public var mAudioDataByteSize: UInt32
    /// Page: https://developer.apple.com/documentation/audiotoolbox/audioqueuebuffer/muserdata  (checked)
    public var mUserData: UnsafeMutableRawPointer?
}
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioqueuebufferref  (not checked: page not in the docs corpus)
public typealias AudioQueueBufferRef = UnsafeMutablePointer<AudioQueueBuffer>
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioqueueoutputcallback  (checked; a C function pointer in the SDK)
public typealias AudioQueueOutputCallback = (UnsafeMutableRawPointer?, AudioQueueRef, AudioQueueBufferRef) -> Void
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioqueuenewoutput(_:_:_:_:_:_:_:)  (checked)
public func AudioQueueNewOutput(
    _ inFormat: UnsafePointer<AudioStreamBasicDescription>, _ inCallbackProc: AudioQueueOutputCallback,
    _ inUserData: UnsafeMutableRawPointer?, _ inCallbackRunLoop: CFRunLoop?, _ inCallbackRunLoopMode: CFString?, _ inFlags: UInt32,
    _ outAQ: UnsafeMutablePointer<AudioQueueRef?>
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioqueueallocatebuffer(_:_:_:)  (checked)
public func AudioQueueAllocateBuffer(
    _ inAQ: AudioQueueRef, _ inBufferByteSize: UInt32, _ outBuffer: UnsafeMutablePointer<AudioQueueBufferRef?>
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioqueueenqueuebuffer(_:_:_:_:)  (checked; `@discardableResult` here as Swift treats imported C results)
@discardableResult
public func AudioQueueEnqueueBuffer(
    _ inAQ: AudioQueueRef, _ inBuffer: AudioQueueBufferRef, _ inNumPacketDescs: UInt32,
    _ inPacketDescs: UnsafePointer<AudioStreamPacketDescription>?
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioqueuestart(_:_:)  (checked)
public func AudioQueueStart(_ inAQ: AudioQueueRef, _ inStartTime: UnsafePointer<AudioTimeStamp>?) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioqueuestop(_:_:)  (checked; `@discardableResult` here as Swift treats imported C results)
@discardableResult
public func AudioQueueStop(_ inAQ: AudioQueueRef, _ inImmediate: Bool) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/audiotoolbox/audioqueuedispose(_:_:)  (checked; `@discardableResult` here as Swift treats imported C results)
@discardableResult
public func AudioQueueDispose(_ inAQ: AudioQueueRef, _ inImmediate: Bool) -> OSStatus { 0 }

// MARK: AVFoundation capture (the camera source)
/// Page: https://developer.apple.com/documentation/corefoundation/cfstringencoding  (checked)
public typealias CFStringEncoding = UInt32
/// Page: https://developer.apple.com/documentation/corefoundation/cfstringbuiltinencodings  (checked: `enum CFStringBuiltInEncodings`)
public enum CFStringBuiltInEncodings: CFStringEncoding {
    /// Page: https://developer.apple.com/documentation/corefoundation/cfstringbuiltinencodings/utf8  (checked: `case UTF8`; the raw value is not on the page)
    case UTF8 = 0x0800_0100
}
/// Page: https://developer.apple.com/documentation/corefoundation/cfstringgetcstring(_:_:_:_:)  (checked)
public func CFStringGetCString(
    _ theString: CFString!, _ buffer: UnsafeMutablePointer<CChar>!, _ bufferSize: CFIndex, _ encoding: CFStringEncoding
) -> Bool { false }
/// Page: https://developer.apple.com/documentation/coremedia/cmclock  (checked: `class CMClock`)
public final class CMClock { init() {} }
/// Page: https://developer.apple.com/documentation/coremedia/cmclockgethosttimeclock()  (checked)
public func CMClockGetHostTimeClock() -> CMClock { CMClock() }
/// Page: https://developer.apple.com/documentation/coremedia/cmclockgettime(_:)  (checked)
public func CMClockGetTime(_ clock: CMClock) -> CMTime { .invalid }
extension CMTime {
    /// Page: https://developer.apple.com/documentation/coremedia/cmtime/seconds  (checked)
    public var seconds: Double { 0 }
}
/// Page: https://developer.apple.com/documentation/coremedia/cmvideodimensions  (checked: `struct CMVideoDimensions` with `width` and `height`)
public struct CMVideoDimensions {
    public var width: Int32
    public var height: Int32
}
/// Page: https://developer.apple.com/documentation/coremedia/cmvideoformatdescriptiongetdimensions(_:)  (checked)
public func CMVideoFormatDescriptionGetDimensions(_ videoDesc: CMVideoFormatDescription) -> CMVideoDimensions {
    CMVideoDimensions(width: 0, height: 0)
}
/// Page: https://developer.apple.com/documentation/coremedia/cmsamplebuffergetimagebuffer(_:)  (checked)
public func CMSampleBufferGetImageBuffer(_ sbuf: CMSampleBuffer) -> CVImageBuffer? { nil }
/// Page: https://developer.apple.com/documentation/corevideo/cvpixelbuffergetpixelformattype(_:)  (checked)
public func CVPixelBufferGetPixelFormatType(_ pixelBuffer: CVPixelBuffer) -> OSType { 0 }
/// Page: https://developer.apple.com/documentation/avfoundation/avframeraterange  (checked: `class AVFrameRateRange`)
open class AVFrameRateRange {
    /// Page: https://developer.apple.com/documentation/avfoundation/avframeraterange/maxframerate  (checked)
    open var maxFrameRate: Float64 { 0 }
}
/// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice  (checked: `class AVCaptureDevice`)
open class AVCaptureDevice {
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/position-swift.enum  (checked: `enum Position`, cases unspecified, back, front, `init?(rawValue: Int)`)
    public enum Position: Int, Sendable {
        case unspecified = 0, back, front
    }
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/devicetype-swift.struct  (checked: `struct DeviceType`)
    public struct DeviceType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/devicetype-swift.struct/builtinwideanglecamera  (checked)
        public static let builtInWideAngleCamera = DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInWideAngleCamera")
        /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/devicetype-swift.struct/external  (checked: iOS 17, macOS 14 (also Mac Catalyst 17, tvOS 17, visionOS 2.1))
        @available(iOS 17.0, macOS 14.0, *)
        public static let external = DeviceType(rawValue: "AVCaptureDeviceTypeExternal")
    }
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/format  (checked: `class Format`)
    open class Format {
        /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/format/formatdescription  (checked)
        open var formatDescription: CMFormatDescription { CMFormatDescription() }
        /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/format/videosupportedframerateranges  (checked)
        open var videoSupportedFrameRateRanges: [AVFrameRateRange] { [] }
    }
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/discoverysession  (checked: `class DiscoverySession`)
    open class DiscoverySession {
        /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/discoverysession/init(devicetypes:mediatype:position:)  (checked)
        public init(deviceTypes: [AVCaptureDevice.DeviceType], mediaType: AVMediaType?, position: AVCaptureDevice.Position) {}
        /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/discoverysession/devices  (checked)
        open var devices: [AVCaptureDevice] { [] }
    }
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/uniqueid  (checked)
    open var uniqueID: String { "" }
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/localizedname  (checked)
    open var localizedName: String { "" }
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/position-swift.property  (checked)
    open var position: AVCaptureDevice.Position { .unspecified }
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/formats  (checked)
    open var formats: [AVCaptureDevice.Format] { [] }
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/activeformat  (checked)
    open var activeFormat: AVCaptureDevice.Format = Format()
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/activevideominframeduration  (checked)
    open var activeVideoMinFrameDuration: CMTime = .invalid
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/lockforconfiguration()  (checked)
    open func lockForConfiguration() throws {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/unlockforconfiguration()  (checked)
    open func unlockForConfiguration() {}
}
/// Page: https://developer.apple.com/documentation/avfoundation/avcaptureinput  (checked: `class AVCaptureInput`)
open class AVCaptureInput {}
/// Page: https://developer.apple.com/documentation/avfoundation/avcapturedeviceinput  (not checked: page not found in the docs corpus)
open class AVCaptureDeviceInput: AVCaptureInput {
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedeviceinput/init(device:)  (checked)
    public init(device: AVCaptureDevice) throws {}
}
/// Page: https://developer.apple.com/documentation/avfoundation/avcaptureoutput  (checked: `class AVCaptureOutput`)
open class AVCaptureOutput {}
/// Page: https://developer.apple.com/documentation/avfoundation/avcaptureconnection  (checked: `class AVCaptureConnection`)
open class AVCaptureConnection {}
/// Page: https://developer.apple.com/documentation/avfoundation/avcapturevideodataoutputsamplebufferdelegate  (checked: `protocol … : NSObjectProtocol`)
public protocol AVCaptureVideoDataOutputSampleBufferDelegate: NSObjectProtocol {
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturevideodataoutputsamplebufferdelegate/captureoutput(_:didoutput:from:)  (checked; `optional func` on the page, modelled by the extension's default below)
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturevideodataoutputsamplebufferdelegate/captureoutput(_:diddrop:from:)  (checked; `optional func` on the page, modelled by the extension's default below)
    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
}
extension AVCaptureVideoDataOutputSampleBufferDelegate {
    /// (Both methods are optional in the SDK.)
    public func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {}
    /// (Both methods are optional in the SDK.)
    public func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {}
}
/// Page: https://developer.apple.com/documentation/avfoundation/avcapturevideodataoutput  (checked: `class AVCaptureVideoDataOutput`)
open class AVCaptureVideoDataOutput: AVCaptureOutput {
    public override init() {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturevideodataoutput/videosettings  (checked)
    open var videoSettings: [String: Any]! = [:]
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturevideodataoutput/alwaysdiscardslatevideoframes  (checked)
    open var alwaysDiscardsLateVideoFrames: Bool = true
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturevideodataoutput/setsamplebufferdelegate(_:queue:)  (checked; `dispatch_queue_t?` on the page is DispatchQueue in Swift)
    open func setSampleBufferDelegate(
        _ sampleBufferDelegate: (any AVCaptureVideoDataOutputSampleBufferDelegate)?, queue sampleBufferCallbackQueue: DispatchQueue?
    ) {}
}
/// Page: https://developer.apple.com/documentation/avfoundation/avcapturesession  (checked: `class AVCaptureSession`)
open class AVCaptureSession {
    public init() {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturesession/beginconfiguration()  (checked)
    open func beginConfiguration() {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturesession/commitconfiguration()  (checked)
    open func commitConfiguration() {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturesession/canaddinput(_:)  (not checked: page not found in the docs corpus)
    open func canAddInput(_ input: AVCaptureInput) -> Bool { false }
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturesession/addinput(_:)  (checked)
    open func addInput(_ input: AVCaptureInput) {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturesession/canaddoutput(_:)  (checked)
    open func canAddOutput(_ output: AVCaptureOutput) -> Bool { false }
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturesession/addoutput(_:)  (checked)
    open func addOutput(_ output: AVCaptureOutput) {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturesession/startrunning()  (checked)
    open func startRunning() {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturesession/stoprunning()  (checked)
    open func stopRunning() {}
}
extension AVCaptureSession {
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturesession/runtimeerrornotification  (checked; `class let` on the page)
    public static let runtimeErrorNotification = NSNotification.Name("AVCaptureSessionRuntimeErrorNotification")
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturesession/wasinterruptednotification  (checked; `class let` on the page)
    public static let wasInterruptedNotification = NSNotification.Name("AVCaptureSessionWasInterruptedNotification")
}
/// Page: https://developer.apple.com/documentation/avfoundation/avcapturesessionerrorkey  (checked)
public let AVCaptureSessionErrorKey: String = "AVCaptureSessionErrorKey"
/// Page: https://developer.apple.com/documentation/avfoundation/avcapturesessioninterruptionreasonkey  (checked; iOS, Mac Catalyst, tvOS, visionOS: not macOS)
public let AVCaptureSessionInterruptionReasonKey: String = "AVCaptureSessionInterruptionReasonKey"
extension AVCaptureDevice {
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/wasdisconnectednotification  (checked; `class let` on the page)
    public static let wasDisconnectedNotification = NSNotification.Name("AVCaptureDeviceWasDisconnectedNotification")
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/default(for:)  (checked)
    public class func `default`(for mediaType: AVMediaType) -> AVCaptureDevice? { nil }
    /// Page: https://developer.apple.com/documentation/avfoundation/avcapturedevice/init(uniqueid:)  (checked)
    public convenience init?(uniqueID deviceUniqueID: String) { return nil }
}

// MARK: AVFoundation capture (the microphone source)
/// Page: https://developer.apple.com/documentation/avfoundation/avcaptureaudiodataoutputsamplebufferdelegate  (checked)
public protocol AVCaptureAudioDataOutputSampleBufferDelegate: NSObjectProtocol {
    /// Page: https://developer.apple.com/documentation/avfoundation/avcaptureaudiodataoutputsamplebufferdelegate/captureoutput(_:didoutput:from:)  (checked; optional in the SDK)
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
}
/// Page: https://developer.apple.com/documentation/avfoundation/avcaptureaudiodataoutput  (checked: `class AVCaptureAudioDataOutput`, with `init()`)
open class AVCaptureAudioDataOutput: AVCaptureOutput {
    public override init() {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avcaptureaudiodataoutput/setsamplebufferdelegate(_:queue:)  (checked; `dispatch_queue_t?` on the page is DispatchQueue in Swift)
    open func setSampleBufferDelegate(
        _ sampleBufferDelegate: (any AVCaptureAudioDataOutputSampleBufferDelegate)?, queue sampleBufferCallbackQueue: DispatchQueue?
    ) {}
}
/// Page: https://developer.apple.com/documentation/coremedia/cmsamplebuffergetnumsamples(_:)  (checked)
public func CMSampleBufferGetNumSamples(_ sbuf: CMSampleBuffer) -> CMItemCount { 0 }
/// Page: https://developer.apple.com/documentation/coremedia/cmaudioformatdescriptiongetstreambasicdescription(_:)  (checked)
public func CMAudioFormatDescriptionGetStreamBasicDescription(_ desc: CMAudioFormatDescription) -> UnsafePointer<AudioStreamBasicDescription>? { nil }
/// Page: https://developer.apple.com/documentation/coremedia/cmsamplebuffergetaudiobufferlistwithretainedblockbuffer(_:bufferlistsizeneededout:bufferlistout:bufferlistsize:blockbufferallocator:blockbuffermemoryallocator:flags:blockbufferout:)  (checked as far as the page's text reaches: sbuf … blockBufferMemoryAllocator; flags and blockBufferOut from the symbol's title)
public func CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
    _ sbuf: CMSampleBuffer, bufferListSizeNeededOut: UnsafeMutablePointer<Int>?, bufferListOut: UnsafeMutablePointer<AudioBufferList>?,
    bufferListSize: Int, blockBufferAllocator blockBufferStructureAllocator: CFAllocator?,
    blockBufferMemoryAllocator blockBufferBlockAllocator: CFAllocator?, flags: UInt32, blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>?
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/coreaudio/unsafemutableaudiobufferlistpointer  (checked: a RandomAccessCollection, MutableCollection of AudioBuffer)
public struct UnsafeMutableAudioBufferListPointer: RandomAccessCollection, MutableCollection {
    /// Page: https://developer.apple.com/documentation/coreaudio/unsafemutableaudiobufferlistpointer/unsafemutablepointer  (checked)
    public var unsafeMutablePointer: UnsafeMutablePointer<AudioBufferList>
    /// Page: https://developer.apple.com/documentation/coreaudio/unsafemutableaudiobufferlistpointer/init(_:)-4a7c5  (checked)
    public init(_ p: UnsafeMutablePointer<AudioBufferList>) { unsafeMutablePointer = p }
    /// (Collection: always zero.)
    public var startIndex: Int { 0 }
    /// (Collection: `mNumberBuffers`.)
    public var endIndex: Int { Int(unsafeMutablePointer.pointee.mNumberBuffers) }
    /// (Collection: the buffer at `index`.)
    public subscript(index: Int) -> AudioBuffer {
        get { unsafeMutablePointer.pointee.mBuffers }
        nonmutating set {}
    }
}

// MARK: The picture side of playback (PlaybackView)
/// Page: https://developer.apple.com/documentation/coremedia/cmvideoformatdescriptioncreateforimagebuffer(allocator:imagebuffer:formatdescriptionout:)  (checked)
public func CMVideoFormatDescriptionCreateForImageBuffer(
    allocator: CFAllocator?, imageBuffer: CVImageBuffer, formatDescriptionOut: UnsafeMutablePointer<CMVideoFormatDescription?>
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/coremedia/cmsamplebuffercreatereadywithimagebuffer(allocator:imagebuffer:formatdescription:sampletiming:samplebufferout:)  (checked)
public func CMSampleBufferCreateReadyWithImageBuffer(
    allocator: CFAllocator?, imageBuffer: CVImageBuffer, formatDescription: CMVideoFormatDescription,
    sampleTiming: UnsafePointer<CMSampleTimingInfo>, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus { 0 }
/// Page: https://developer.apple.com/documentation/coremedia/kcmsampleattachmentkey_displayimmediately  (checked: `let` on the page)
public var kCMSampleAttachmentKey_DisplayImmediately: CFString { CFString("DisplayImmediately") }
/// Page: https://developer.apple.com/documentation/quartzcore/calayer  (checked: `class CALayer`; fixed: the stub had `@MainActor`, which the page does not show)
open class CALayer {
    public init() {}
    /// Page: https://developer.apple.com/documentation/quartzcore/calayer/frame  (checked)
    open var frame: CGRect = .zero
    /// Page: https://developer.apple.com/documentation/quartzcore/calayer/addsublayer(_:)  (checked)
    open func addSublayer(_ layer: CALayer) {}
}
/// Page: https://developer.apple.com/documentation/avfoundation/avlayervideogravity  (checked: `struct AVLayerVideoGravity`)
public struct AVLayerVideoGravity: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Page: https://developer.apple.com/documentation/avfoundation/avlayervideogravity/resizeaspect  (checked)
    public static let resizeAspect = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResizeAspect")
}
/// Page: https://developer.apple.com/documentation/avfoundation/avsamplebuffervideorenderer  (checked: `class AVSampleBufferVideoRenderer`, iOS 17 / macOS 14; fixed: added that availability)
@available(iOS 17.0, macOS 14.0, *)
open class AVSampleBufferVideoRenderer {
    /// Page: https://developer.apple.com/documentation/avfoundation/avsamplebuffervideorenderer/enqueue(_:)  (checked)
    open func enqueue(_ sampleBuffer: CMSampleBuffer) {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avsamplebuffervideorenderer/flush()  (checked)
    open func flush() {}
}
/// Page: https://developer.apple.com/documentation/avfoundation/avsamplebufferdisplaylayer  (checked: `@MainActor class`)
@MainActor open class AVSampleBufferDisplayLayer: CALayer {
    public override init() {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avsamplebufferdisplaylayer/videogravity  (checked)
    open var videoGravity: AVLayerVideoGravity = .resizeAspect
    /// Page: https://developer.apple.com/documentation/avfoundation/avsamplebufferdisplaylayer/samplebufferrenderer  (checked)
    @available(iOS 17.0, macOS 14.0, *)
    open var sampleBufferRenderer: AVSampleBufferVideoRenderer { AVSampleBufferVideoRenderer() }
    /// Page: https://developer.apple.com/documentation/avfoundation/avsamplebufferdisplaylayer/enqueue(_:)  (checked; deprecated in iOS 18 / macOS 15)
    @available(iOS, deprecated: 18.0) @available(macOS, deprecated: 15.0)
    open func enqueue(_ sampleBuffer: CMSampleBuffer) {}
    /// Page: https://developer.apple.com/documentation/avfoundation/avsamplebufferdisplaylayer/flush()  (checked; deprecated in iOS 18 / macOS 15)
    @available(iOS, deprecated: 18.0) @available(macOS, deprecated: 15.0)
    open func flush() {}
}
#if !ONAIR_APPLE_STUBS_APPKIT
/// Page: https://developer.apple.com/documentation/uikit/uiview  (checked: `@MainActor class UIView`)
@MainActor open class UIView {
    /// Page: https://developer.apple.com/documentation/uikit/uiview/init(frame:)  (checked)
    public init(frame: CGRect) {}
    /// Page: https://developer.apple.com/documentation/uikit/uiview/init(coder:)  (not checked: page not found in the docs corpus)
    public required init?(coder: NSCoder) {}
    /// Page: https://developer.apple.com/documentation/uikit/uiview/layer  (checked)
    open var layer: CALayer { CALayer() }
    /// Page: https://developer.apple.com/documentation/uikit/uiview/bounds  (checked)
    open var bounds: CGRect = .zero
    /// Page: https://developer.apple.com/documentation/uikit/uiview/layoutsubviews()  (checked)
    open func layoutSubviews() {}
}
#else
/// Page: https://developer.apple.com/documentation/appkit/nsview  (checked: `@MainActor class NSView`)
@MainActor open class NSView {
    /// Page: https://developer.apple.com/documentation/appkit/nsview/init(frame:)  (checked: `init(frame frameRect: NSRect)` on the page; NSRect is CGRect in Swift)
    public init(frame frameRect: CGRect) {}
    /// Page: https://developer.apple.com/documentation/appkit/nsview/init(coder:)  (checked: `init?(coder: NSCoder)`; `required` here as Swift requires of an NSCoding subclass)
    public required init?(coder: NSCoder) {}
    /// Page: https://developer.apple.com/documentation/appkit/nsview/wantslayer  (checked)
    open var wantsLayer: Bool = false
    /// Page: https://developer.apple.com/documentation/appkit/nsview/layer  (checked)
    open var layer: CALayer?
    /// Page: https://developer.apple.com/documentation/appkit/nsview/bounds  (checked: `var bounds: NSRect { get set }`; NSRect is CGRect in Swift)
    open var bounds: CGRect = .zero
    /// Page: https://developer.apple.com/documentation/appkit/nsview/layout()  (checked)
    open func layout() {}
}
#endif
