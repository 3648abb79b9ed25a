import OnAirBitstream
import OnAirCore

/// What an AVAssetWriter recording (encoded samples passed through, no re-encode) is given, decided
/// from the packets as they come: the writer can start only once every expected track's format is
/// known (SPS/PPS — and for H.265 the VPS — from the first keyframe, the AudioSpecificConfig from
/// the first AAC packet), so packets are held until then (at most `maxHeld`); video before the
/// first keyframe is dropped; the session starts at the earliest held time; video goes in as NAL
/// units after 4-byte lengths without in-band parameter sets (`avc1`, or `hvc1` for H.265: the
/// parameter sets in the format description, the tag Apple's players need), audio as raw AAC frames. A parameter-set change mid-file is refused (a passthrough track
/// keeps one format). Movie fragments every `movieFragmentInterval` seconds, so that a killed app
/// leaves a playable file. A pure value.
public struct AssetWriterFeed: Sendable {
    /// An H.264 or H.265 track's format.
    public struct VideoFormat: Sendable, Equatable {
        /// `.h264` or `.h265`.
        public var codec: MediaCodec
        /// Video parameter sets (H.265 only; empty for H.264).
        public var vps: [[UInt8]]
        /// Sequence and picture parameter sets.
        public var sps: [[UInt8]], pps: [[UInt8]]

        /// An H.264 format of these parameter sets.
        public init(sps: [[UInt8]], pps: [[UInt8]]) {
            self.init(codec: .h264, vps: [], sps: sps, pps: pps)
        }

        /// A format of `codec` with these parameter sets.
        public init(codec: MediaCodec, vps: [[UInt8]], sps: [[UInt8]], pps: [[UInt8]]) {
            self.codec = codec
            self.vps = vps
            self.sps = sps
            self.pps = pps
        }

        /// The parameter sets in the order a format description lists them (VPS, SPS, PPS).
        public var parameterSets: [[UInt8]] { vps + sps + pps }
    }

    /// An AAC track's format.
    public struct AudioFormat: Sendable, Equatable {
        /// The AudioSpecificConfig (the magic cookie).
        public var audioSpecificConfig: [UInt8]
        /// Samples per second and channels, read from the config.
        public var sampleRate: Int, channels: Int

        /// A format of this config, rate and channel count.
        public init(audioSpecificConfig: [UInt8], sampleRate: Int, channels: Int) {
            self.audioSpecificConfig = audioSpecificConfig
            self.sampleRate = sampleRate
            self.channels = channels
        }
    }

    /// One sample to append.
    public struct Sample: Sendable, Equatable {
        /// Which track.
        public var mediaType: MediaType
        /// The sample's bytes.
        public var bytes: [UInt8]
        /// Presentation time, decode time, duration.
        public var pts: MediaTime, dts: MediaTime, duration: MediaTime
        /// Whether it is a sync sample (the adapter marks the others NotSync).
        public var isKeyframe: Bool
    }

    /// One thing for the adapter to do.
    public enum Step: Sendable, Equatable {
        /// Add these inputs, start writing and start the session at `start`.
        case begin(video: VideoFormat?, audio: AudioFormat?, start: MediaTime)
        /// Append a sample.
        case append(Sample)
        /// Nothing to write for this packet, and why.
        case skip(reason: String)
    }

    /// Seconds between movie fragments.
    public static let movieFragmentInterval = 1.0
    /// Packets held at most while a track's format is still unknown.
    public static let maxHeld = 600

    /// The tracks the recording has.
    public let tracks: Set<MediaType>
    private var video: VideoFormat?
    private var audio: AudioFormat?
    private var held: [EncodedPacket] = []
    private var start: MediaTime?

    /// A feed for a recording of `tracks`.
    public init(tracks: Set<MediaType>) {
        self.tracks = tracks
    }

    /// The steps for one packet.
    package mutating func feed(_ packet: EncodedPacket) throws(AppleBackendError) -> [Step] {
        guard tracks.contains(packet.mediaType) else { return [.skip(reason: "no \(packet.mediaType.rawValue) track")] }
        if let start {
            if packet.mediaType == .video, packet.isKeyframe, let format = try Self.videoFormat(of: packet), format != video {
                throw AppleBackendError(
                    operation: "AVAssetWriter passthrough",
                    detail: "the \(format.codec == .h265 ? "H.265" : "H.264") parameter sets changed mid-file; a track keeps one format")
            }
            guard packet.pts >= start else { return [.skip(reason: "before the session start")] }
            return [.append(try Self.sample(packet))]
        }
        switch packet.mediaType {
        case .video where video == nil:
            guard packet.isKeyframe else { return [.skip(reason: "waiting for the first keyframe")] }
            guard let format = try Self.videoFormat(of: packet) else {
                throw AppleBackendError(
                    operation: "AVAssetWriter passthrough",
                    detail: packet.codec == .h265 ? "a keyframe without VPS/SPS/PPS" : "a keyframe without SPS/PPS")
            }
            video = format
        case .audio where audio == nil:
            guard case .aac(let config)? = packet.formatDescription else {
                return [.skip(reason: "waiting for the AudioSpecificConfig")]
            }
            guard let parsed = try? AudioSpecificConfig(parsing: config), parsed.outputChannels > 0 else {
                throw AppleBackendError(operation: "AVAssetWriter passthrough", detail: "an AudioSpecificConfig that does not parse")
            }
            audio = AudioFormat(audioSpecificConfig: config, sampleRate: parsed.samplingFrequency, channels: parsed.outputChannels)
        default:
            break
        }
        held.append(packet)
        guard held.count <= Self.maxHeld else {
            throw AppleBackendError(
                operation: "AVAssetWriter passthrough",
                detail:
                    "no \(tracks.subtracting(configured).map(\.rawValue).sorted().joined(separator: ", ")) format after \(Self.maxHeld) packets"
            )
        }
        return configured == tracks ? try begin() : []
    }

    /// The steps at the end: a recording whose other track never came starts with what it has.
    public mutating func finish() throws(AppleBackendError) -> [Step] {
        guard start == nil, !configured.isEmpty else { return [] }
        return try begin()
    }

    private var configured: Set<MediaType> {
        var set: Set<MediaType> = []
        if video != nil { set.insert(.video) }
        if audio != nil { set.insert(.audio) }
        return set
    }

    private mutating func begin() throws(AppleBackendError) -> [Step] {
        let usable = held.filter { configured.contains($0.mediaType) }
        let first = usable.map(\.pts).min() ?? .zero
        start = first
        held = []
        var steps: [Step] = [.begin(video: video, audio: audio, start: first)]
        for packet in usable {
            steps.append(.append(try Self.sample(packet)))
        }
        return steps
    }

    private static func videoFormat(of packet: EncodedPacket) throws(AppleBackendError) -> VideoFormat? {
        if packet.codec == .h265 { return try hevcFormat(of: packet) }
        guard packet.codec == .h264 else {
            throw AppleBackendError(operation: "AVAssetWriter passthrough", detail: "\(packet.codec) video is not H.264 or H.265")
        }
        if case .h264(let sps, let pps)? = packet.formatDescription, !sps.isEmpty, !pps.isEmpty {
            return VideoFormat(sps: sps, pps: pps)
        }
        let units: [H264NALUnit]
        do {
            switch packet.form {
            case .annexB: units = AnnexB.split(packet.data)
            case .lengthPrefixed(let size, _): units = try AVCC.units(in: packet.data, lengthSize: size)
            case .raw: units = []
            }
        } catch {
            throw AppleBackendError(operation: "AVAssetWriter passthrough", detail: "\(error)")
        }
        let sps = units.filter { $0.type == .sps }.map(\.bytes), pps = units.filter { $0.type == .pps }.map(\.bytes)
        return sps.isEmpty || pps.isEmpty ? nil : VideoFormat(sps: sps, pps: pps)
    }

    /// An H.265 keyframe's VPS, SPS and PPS: from its format description, else from its own units.
    private static func hevcFormat(of packet: EncodedPacket) throws(AppleBackendError) -> VideoFormat? {
        if case .h265(let vps, let sps, let pps)? = packet.formatDescription, !vps.isEmpty, !sps.isEmpty, !pps.isEmpty {
            return VideoFormat(codec: .h265, vps: vps, sps: sps, pps: pps)
        }
        let units = try hevcUnits(of: packet)
        func sets(_ type: HEVCNALUnitType) -> [[UInt8]] { units.filter { $0.type == type }.map(\.bytes) }
        let (vps, sps, pps) = (sets(.vps), sets(.sps), sets(.pps))
        return vps.isEmpty || sps.isEmpty || pps.isEmpty ? nil : VideoFormat(codec: .h265, vps: vps, sps: sps, pps: pps)
    }

    private static func hevcUnits(of packet: EncodedPacket) throws(AppleBackendError) -> [HEVCNALUnit] {
        do {
            switch packet.form {
            case .annexB: return HEVCByteStream.split(packet.data)
            case .lengthPrefixed(let size, _): return try HEVCByteStream.units(inSample: packet.data, lengthSize: size)
            case .raw: return []
            }
        } catch {
            throw AppleBackendError(operation: "AVAssetWriter passthrough", detail: "\(error)")
        }
    }

    private static func sample(_ packet: EncodedPacket) throws(AppleBackendError) -> Sample {
        let bytes: [UInt8]
        switch packet.codec {
        case .h264:
            do {
                bytes = try packet.converted(to: .avcc).bytes
            } catch {
                throw AppleBackendError(operation: "AVAssetWriter passthrough", detail: "\(error)")
            }
        case .h265:
            // hvc1: the pictures' units after 4-byte lengths, the parameter sets in the format description.
            do {
                bytes = try HEVCByteStream.sample(from: try hevcUnits(of: packet).filter { !$0.type.isParameterSet }, lengthSize: 4)
            } catch {
                throw AppleBackendError(operation: "AVAssetWriter passthrough", detail: "\(error)")
            }
        default:
            bytes = packet.data
        }
        return Sample(
            mediaType: packet.mediaType, bytes: bytes, pts: packet.pts, dts: packet.dts, duration: packet.duration,
            isKeyframe: packet.isKeyframe)
    }
}
