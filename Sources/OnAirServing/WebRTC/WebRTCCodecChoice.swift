#if os(Linux)
#if canImport(OnAirGStreamer)
import OnAirCore
import OnAirGStreamer

/// The payload types a WHEP answer sends with, picked from the viewer's offer: H.264 in
/// packetization mode 1 with a profile that can decode the serve encode, and Opus.
///
/// A Constrained Baseline stream is decodable by every H.264 profile's decoder, so the offer's
/// Constrained Baseline payload type is preferred, then Baseline, Main and High ones; a Main or High
/// stream needs an offer of that profile (or a higher one), else the viewer is told why not.
package struct WebRTCCodecChoice: Sendable, Equatable {
    /// The section index and payload type of H.264 (nil: the viewer wants no video, or there is none).
    public var videoPayloadType: Int?
    /// The Opus payload type (nil: no audio).
    public var audioPayloadType: Int?

    /// Why an offer cannot be answered.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// The reason, in words for the viewer.
        public var description: String
    }

    /// Picks from `offer` for a stream of `profile` with `streams`.
    package init(offer: WebRTCOffer, profile: H264Profile, streams: Set<MediaType>) throws(Refusal) {
        let wanted = offer.sections.filter(\.receives)
        if streams.contains(.video), let video = wanted.first(where: { $0.kind == "video" }) {
            let candidates = video.codecs.filter {
                $0.name.uppercased() == "H264" && $0.clockRate == 90_000 && ($0.parameters["packetization-mode"] ?? "0") == "1"
            }
            let ranked = candidates.compactMap { codec in
                Self.rank(profileLevelID: codec.parameters["profile-level-id"] ?? "42e01f", for: profile).map { (codec, $0) }
            }
            guard let best = ranked.min(by: { $0.1 < $1.1 })?.0 else {
                let offered = candidates.map { $0.parameters["profile-level-id"] ?? "?" }
                throw Refusal(
                    description: "the offer has no H.264 (packetization-mode=1) that can decode the \(profile.rawValue) stream"
                        + (offered.isEmpty ? " (no H.264 at all)" : " (offered profile-level-id \(offered.joined(separator: ", ")))")
                        + (profile == .baseline ? "" : "; serve with --profile baseline for every WebRTC player"))
            }
            videoPayloadType = best.payloadType
        }
        if streams.contains(.audio), let audio = wanted.first(where: { $0.kind == "audio" }) {
            audioPayloadType = audio.codecs.first { $0.name.lowercased() == "opus" && $0.clockRate == 48_000 }?.payloadType
        }
        guard videoPayloadType != nil || audioPayloadType != nil else {
            throw Refusal(description: "the offer receives neither H.264 video nor Opus audio")
        }
    }

    /// How well an offered profile-level-id suits a stream of `profile` (lower is better), nil when it cannot decode it.
    static func rank(profileLevelID: String, for profile: H264Profile) -> Int? {
        let hex = Array(profileLevelID.utf8)
        guard hex.count == 6, let value = Int(profileLevelID, radix: 16) else { return nil }
        let profileIDC = value >> 16, constraints = (value >> 8) & 0xFF
        let constrainedBaseline = profileIDC == 66 && constraints & 0x40 != 0
        switch profile {
        case .baseline:
            if constrainedBaseline { return 0 }
            return [66: 1, 77: 2, 100: 3][profileIDC]
        case .main:
            return [77: 0, 100: 1][profileIDC]
        case .high:
            return profileIDC == 100 ? 0 : nil
        }
    }
}
#endif
#endif
