import OnAirCore

/// The linear PCM a microphone delivers, read from the fields of its AudioStreamBasicDescription,
/// and the conversion of its audio buffers into the `PCMBuffer` every capture source delivers.
///
/// AVCaptureAudioDataOutput hands over the device's own format (16-bit integer interleaved on
/// iOS, often 32-bit float non-interleaved on macOS); this type says which `PCMSampleFormat` and
/// layout that is and refuses what OnAir's encoders cannot take (big-endian, 8- or 24-bit,
/// compressed). The adapter passes the raw fields and the buffers' bytes; nothing here needs an
/// Apple type.
public struct CapturedAudioFormat: Sendable, Equatable {
    /// `kAudioFormatLinearPCM` ('lpcm').
    public static let linearPCM: UInt32 = 0x6C70_636D
    /// The `kAudioFormatFlag…` bits this type reads (CoreAudioTypes' values).
    public struct Flags: OptionSet, Sendable, Equatable {
        /// The raw `mFormatFlags`.
        public let rawValue: UInt32
        /// Creates flags from `mFormatFlags`.
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// `kAudioFormatFlagIsFloat`.
        public static let isFloat = Flags(rawValue: 1 << 0)
        /// `kAudioFormatFlagIsBigEndian`.
        public static let isBigEndian = Flags(rawValue: 1 << 1)
        /// `kAudioFormatFlagIsSignedInteger`.
        public static let isSignedInteger = Flags(rawValue: 1 << 2)
        /// `kAudioFormatFlagIsPacked`.
        public static let isPacked = Flags(rawValue: 1 << 3)
        /// `kAudioFormatFlagIsNonInterleaved`.
        public static let isNonInterleaved = Flags(rawValue: 1 << 5)
    }

    /// The sample type.
    public let sampleFormat: PCMBuffer.SampleFormat
    /// One buffer per channel (non-interleaved) or one for all.
    public let isPlanar: Bool
    /// Samples per second per channel.
    public let sampleRate: Int
    /// Channels.
    public let channels: Int

    /// Reads an AudioStreamBasicDescription's fields; throws naming what OnAir cannot take.
    public init(
        formatID: UInt32, flags: UInt32, sampleRate: Double, channelsPerFrame: UInt32, bitsPerChannel: UInt32,
        bytesPerFrame: UInt32
    ) throws(AppleBackendError) {
        func refuse(_ why: String) -> AppleBackendError { AppleBackendError(operation: "microphone format", detail: why) }
        let flags = Flags(rawValue: flags)
        guard formatID == Self.linearPCM else { throw refuse("not linear PCM (format ID \(formatID))") }
        guard !flags.contains(.isBigEndian) else { throw refuse("big-endian samples") }
        guard sampleRate >= 1, sampleRate <= 768_000, sampleRate == sampleRate.rounded() else {
            throw refuse("sample rate \(sampleRate)")
        }
        guard channelsPerFrame >= 1, channelsPerFrame <= 64 else { throw refuse("\(channelsPerFrame) channels") }
        switch (flags.contains(.isFloat), flags.contains(.isSignedInteger), bitsPerChannel) {
        case (true, _, 32): sampleFormat = .f32
        case (false, true, 16): sampleFormat = .s16
        case (false, true, 32): sampleFormat = .s32
        default:
            throw refuse(
                "\(bitsPerChannel)-bit \(flags.contains(.isFloat) ? "float" : flags.contains(.isSignedInteger) ? "signed" : "unsigned") samples"
            )
        }
        isPlanar = flags.contains(.isNonInterleaved)
        channels = Int(channelsPerFrame)
        self.sampleRate = Int(sampleRate)
        // Non-interleaved: bytesPerFrame describes one channel's buffer.
        let expected = sampleFormat.bytesPerSample * (isPlanar ? 1 : channels)
        guard Int(bytesPerFrame) == expected else {
            throw refuse("\(bytesPerFrame) bytes per frame where \(expected) were expected (samples not packed)")
        }
    }

    /// How many audio buffers one capture holds.
    public var bufferCount: Int { isPlanar ? channels : 1 }

    /// The bytes each buffer holds for `frameCount` samples per channel.
    public func bytesPerBuffer(frameCount: Int) -> Int {
        frameCount * sampleFormat.bytesPerSample * (isPlanar ? 1 : channels)
    }

    /// Copies `frameCount` samples per channel out of the capture's buffers (one per channel when
    /// planar) into a `PCMBuffer` stamped `pts`. Throws when the buffer count or any buffer's size
    /// does not hold what the format and the count say (a buffer may be longer; the rest is ignored).
    public func buffer(from buffers: [UnsafeRawBufferPointer], frameCount: Int, pts: MediaTime) throws(AppleBackendError) -> PCMBuffer {
        guard frameCount > 0, frameCount <= 1 << 20 else {
            throw AppleBackendError(operation: "microphone buffer", detail: "\(frameCount) frames")
        }
        guard buffers.count == bufferCount else {
            throw AppleBackendError(operation: "microphone buffer", detail: "\(buffers.count) buffers where \(bufferCount) were expected")
        }
        let size = bytesPerBuffer(frameCount: frameCount)
        var planes: [[UInt8]] = []
        for buffer in buffers {
            guard buffer.count >= size else {
                throw AppleBackendError(
                    operation: "microphone buffer", detail: "\(buffer.count) bytes where \(frameCount) frames need \(size)")
            }
            planes.append(Array(buffer.prefix(size)))
        }
        return PCMBuffer(
            sampleFormat: sampleFormat, isPlanar: isPlanar, sampleRate: sampleRate, channels: channels, frameCount: frameCount,
            planes: planes, pts: pts)
    }
}

/// The timestamps of captured audio: continuous from the sample count, so that the encoder's
/// packets follow one another exactly, and re-anchored on the device's own timestamp (mapped to
/// the session clock) when the two part by more than `tolerance` — a gap after an interruption or
/// dropped buffers — never going backwards.
public struct CapturedAudioTimeline: Sendable {
    /// How far the sample-count timeline may drift from the device's timestamps before it follows them.
    public let tolerance: MediaTime
    private var anchor: MediaTime?
    private var samplesSinceAnchor: Int64 = 0
    private var rate: Int32 = 1
    /// Times the timeline followed the device's timestamp after the first buffer.
    public private(set) var reanchors = 0

    /// A timeline that re-anchors when the drift exceeds `tolerance` (default 40 ms).
    public init(tolerance: MediaTime = MediaTime(value: 40, timescale: 1_000)) {
        self.tolerance = tolerance
    }

    /// The timestamp for a buffer of `frameCount` samples at `sampleRate` that the device stamped
    /// `deviceTime` (already on the session clock).
    public mutating func pts(deviceTime: MediaTime, frameCount: Int, sampleRate: Int) -> MediaTime {
        let sampleRate = Int32(clamping: max(1, sampleRate))
        if let anchor, sampleRate == rate {
            let next = anchor + MediaTime(value: samplesSinceAnchor, timescale: rate)
            // Behind the timeline (jitter, or a clock that stepped back): keep counting, never go back.
            if deviceTime <= next + tolerance {
                samplesSinceAnchor += Int64(frameCount)
                return next
            }
            reanchors += 1
        }
        anchor = deviceTime
        rate = sampleRate
        samplesSinceAnchor = Int64(frameCount)
        return deviceTime
    }
}
