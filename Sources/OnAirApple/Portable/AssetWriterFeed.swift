import OnAirBitstream
import OnAirCore

/// What an AVAssetWriter recording (encoded samples passed through, no re-encode) is given, decided
/// from the packets as they come: the writer can start only once every expected track's format is
/// known (SPS/PPS from the first keyframe, the AudioSpecificConfig from the first AAC packet), so
/// packets are held until then (at most `maxHeld`); video before the first keyframe is dropped; the
/// session starts at the earliest held time; video goes in as 4-byte AVCC without in-band parameter
/// sets, audio as raw AAC frames. A parameter-set change mid-file is refused (a passthrough track
/// keeps one format). Movie fragments every `movieFragmentInterval` seconds, so that a killed app
/// leaves a playable file. A pure value.
public struct AssetWriterFeed: Sendable {
    /// An H.264 track's format.
    public struct VideoFormat: Sendable, Equatable {
        /// Sequence and picture parameter sets.
        public var sps: [[UInt8]], pps: [[UInt8]]

        /// A format of these parameter sets.
        public init(sps: [[UInt8]], pps: [[UInt8]]) {
            self.sps = sps
            self.pps = pps
        }
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
                    operation: "AVAssetWriter passthrough", detail: "the H.264 parameter sets changed mid-file; a track keeps one format")
            }
            guard packet.pts >= start else { return [.skip(reason: "before the session start")] }
            return [.append(try Self.sample(packet))]
        }
        switch packet.mediaType {
        case .video where video == nil:
            guard packet.isKeyframe else { return [.skip(reason: "waiting for the first keyframe")] }
            guard let format = try Self.videoFormat(of: packet) else {
                throw AppleBackendError(operation: "AVAssetWriter passthrough", detail: "a keyframe without SPS/PPS")
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

    private static func sample(_ packet: EncodedPacket) throws(AppleBackendError) -> Sample {
        let bytes: [UInt8]
        if packet.codec == .h264 {
            do {
                bytes = try packet.converted(to: .avcc).bytes
            } catch {
                throw AppleBackendError(operation: "AVAssetWriter passthrough", detail: "\(error)")
            }
        } else {
            bytes = packet.data
        }
        return Sample(
            mediaType: packet.mediaType, bytes: bytes, pts: packet.pts, dts: packet.dts, duration: packet.duration,
            isKeyframe: packet.isKeyframe)
    }
}
