// Apple-only: compiles to nothing on Linux except under the stub check (scripts/apple-stub-check.sh).
#if canImport(AudioToolbox) || ONAIR_APPLE_STUBS
#if canImport(AudioToolbox)
import AudioToolbox
#else
import AppleAPIStubs
#endif
import OnAirBitstream
import OnAirCore

/// AAC-LC on AudioToolbox's AudioConverter, behind the same `AudioEncoding` protocol as the
/// libavcodec encoder: PCM in any chunking and layout (at the settings' rate and channel count) is
/// cut into 1024-sample frames by `AACPacketizer`, and the k-th packet out is stamped with the
/// k-th frame's time (the encoder's priming is inside the first packets, as in an ADTS file).
/// Packets are raw AAC frames with the AudioSpecificConfig on the first, ready for the portable
/// ADTS writer. Not yet built on a Mac: see docs/APPLE.md.
public final class AudioToolboxAACEncoder: AudioEncoding {
    /// The settings in force.
    public let settings: AudioEncoderSettings
    private var packetizer: AACPacketizer
    private let converter: AudioConverterRef
    private let input: ConverterInput
    private var frameTimes: [MediaTime] = []
    private let audioSpecificConfig: [UInt8]
    private var sentConfig = false
    private let output: UnsafeMutableRawPointer
    private static let outputCapacity = 8_192

    /// Validates `settings` and opens the converter (float PCM in, AAC-LC out at `settings.bitRate`).
    public init(settings: AudioEncoderSettings) throws {
        try settings.validate()
        self.settings = settings
        packetizer = AACPacketizer(settings: settings)
        audioSpecificConfig = try AudioSpecificConfig(sampleRate: settings.sampleRate, channels: settings.channels).serialized()
        let channels = UInt32(settings.channels)
        var source = AudioStreamBasicDescription(
            mSampleRate: Float64(settings.sampleRate), mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked, mBytesPerPacket: 4 * channels, mFramesPerPacket: 1,
            mBytesPerFrame: 4 * channels, mChannelsPerFrame: channels, mBitsPerChannel: 32, mReserved: 0)
        var destination = AudioStreamBasicDescription(
            mSampleRate: Float64(settings.sampleRate), mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0,
            mFramesPerPacket: UInt32(AACPacketizer.samplesPerFrame), mBytesPerFrame: 0, mChannelsPerFrame: channels,
            mBitsPerChannel: 0, mReserved: 0)
        var created: AudioConverterRef?
        let status = AudioConverterNew(&source, &destination, &created)
        guard status == noErr, let created else { throw AppleBackendError(operation: "AudioConverterNew", status: status) }
        converter = created
        var bitRate = UInt32(settings.bitRate)
        let set = AudioConverterSetProperty(converter, kAudioConverterEncodeBitRate, UInt32(MemoryLayout<UInt32>.size), &bitRate)
        guard set == noErr else {
            AudioConverterDispose(converter)
            throw AppleBackendError(operation: "AudioConverterSetProperty EncodeBitRate", status: set, detail: "\(settings.bitRate) bits/s")
        }
        input = ConverterInput(channels: settings.channels)
        output = UnsafeMutableRawPointer.allocate(byteCount: Self.outputCapacity, alignment: 16)
    }

    deinit {
        AudioConverterDispose(converter)
        output.deallocate()
    }

    /// Encodes a run of samples. Returns the packets ready now.
    package func encode(_ buffer: PCMBuffer) throws -> [EncodedPacket] {
        var packets: [EncodedPacket] = []
        for frame in try packetizer.append(buffer) {
            packets += try convert(frame)
        }
        return packets
    }

    /// Encodes what is held (the last frame padded with silence) and drains the converter.
    package func flush() throws -> [EncodedPacket] {
        var packets: [EncodedPacket] = []
        for frame in packetizer.flush() {
            packets += try convert(frame)
        }
        input.endOfStream = true
        while !frameTimes.isEmpty, let packet = try fill() {
            packets.append(packet)
        }
        return packets
    }

    private func convert(_ frame: AACPacketizer.Frame) throws -> [EncodedPacket] {
        input.load(frame.samples)
        frameTimes.append(frame.pts)
        var packets: [EncodedPacket] = []
        while let packet = try fill() {
            packets.append(packet)
        }
        return packets
    }

    /// Asks the converter for one packet; nil when it needs more input first.
    private func fill() throws -> EncodedPacket? {
        var list = AudioBufferList(
            mNumberBuffers: 1,
            mBuffers: AudioBuffer(mNumberChannels: UInt32(settings.channels), mDataByteSize: UInt32(Self.outputCapacity), mData: output))
        var count: UInt32 = 1
        var description = AudioStreamPacketDescription()
        let status = AudioConverterFillComplexBuffer(
            converter,
            { _, packets, data, _, context in
                guard let context else { return ConverterInput.needMoreInput }
                return Unmanaged<ConverterInput>.fromOpaque(context).takeUnretainedValue().supply(packets: packets, into: data)
            }, Unmanaged.passUnretained(input).toOpaque(), &count, &list, &description)
        guard status == noErr || status == ConverterInput.needMoreInput else {
            throw AppleBackendError(operation: "AudioConverterFillComplexBuffer", status: status)
        }
        guard count > 0, list.mBuffers.mDataByteSize > 0, !frameTimes.isEmpty else { return nil }
        let bytes = Array(UnsafeRawBufferPointer(start: output, count: Int(list.mBuffers.mDataByteSize)))
        let pts = frameTimes.removeFirst()
        defer { sentConfig = true }
        return EncodedPacket(
            mediaType: .audio, codec: .aac, data: bytes, pts: pts, dts: pts, duration: packetizer.frameDuration, isKeyframe: true,
            formatDescription: sentConfig ? nil : .aac(audioSpecificConfig: audioSpecificConfig))
    }
}

/// The PCM frame the converter's input callback hands over, at a stable address.
final class ConverterInput {
    /// The status the input callback returns when it has nothing now (not the end of the stream).
    static let needMoreInput: OSStatus = 0x6E_6D_6F_72  // 'nmor', OnAir's own code
    let channels: Int
    let samples: UnsafeMutablePointer<Float>
    var available = 0
    var endOfStream = false

    init(channels: Int) {
        self.channels = channels
        samples = .allocate(capacity: AACPacketizer.samplesPerFrame * channels)
    }

    deinit { samples.deallocate() }

    func load(_ frame: [Float]) {
        let count = min(frame.count, AACPacketizer.samplesPerFrame * channels)
        samples.update(from: frame, count: count)
        available = count / channels
    }

    /// The input callback's work: point `data` at the held frame, or report none.
    func supply(packets: UnsafeMutablePointer<UInt32>, into data: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        guard available > 0 else {
            packets.pointee = 0
            return endOfStream ? OSStatus(noErr) : Self.needMoreInput
        }
        data.pointee.mNumberBuffers = 1
        data.pointee.mBuffers.mNumberChannels = UInt32(channels)
        data.pointee.mBuffers.mDataByteSize = UInt32(available * channels * MemoryLayout<Float>.size)
        data.pointee.mBuffers.mData = UnsafeMutableRawPointer(samples)
        packets.pointee = UInt32(available)
        available = 0
        return OSStatus(noErr)
    }
}
#endif
