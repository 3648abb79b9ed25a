#if os(Linux)
#if canImport(OnAirGStreamer) && canImport(OnAirHTTP) && canImport(OnAirFFmpeg)
/// What a viewer's pipeline and its SDP answer are made of.
extension WebRTCFace {
    /// A viewer's pipeline: its webrtcbin alone; the face pushes RTP into it (`WebRTCPeer.push`).
    static let launch = "webrtcbin name=webrtc bundle-policy=max-bundle latency=0"

    /// The RTP caps of the viewer's streams the offer takes, with its payload types and the SSRCs
    /// the face chose.
    ///
    /// The SSRC is in the caps so that webrtcbin's answer names it: without it the answer's
    /// `a=ssrc-group:FID` pairs RTX with SSRC 0 and a viewer cannot tell which stream a
    /// retransmission repairs (aiortc then dropped every one and froze for seconds after each loss),
    /// and the answer names the SSRC the packets carry (else webrtcbin 1.22 may answer with another,
    /// and Chromium never shows the track).
    static func rtpCaps(_ choice: WebRTCCodecChoice, ssrcs: (video: UInt32, audio: UInt32)) -> (video: String?, audio: String?) {
        (
            choice.videoPayloadType.map {
                "application/x-rtp,media=video,encoding-name=H264,payload=\($0),clock-rate=90000,ssrc=(uint)\(ssrcs.video)"
            },
            choice.audioPayloadType.map {
                "application/x-rtp,media=audio,encoding-name=OPUS,payload=\($0),clock-rate=48000,ssrc=(uint)\(ssrcs.audio)"
            }
        )
    }

    /// The answer with, for each host candidate, a copy on the advertised address (a server behind NAT).
    func advertise(_ answer: String) -> String {
        guard let advertised = configuration.advertisedAddress else { return answer }
        var lines: [String] = []
        for line in answer.components(separatedBy: "\r\n") {
            lines.append(line)
            var fields = line.split(separator: " ").map(String.init)
            guard line.hasPrefix("a=candidate:"), fields.count >= 8, fields[7] == "host" else { continue }
            fields[0] += "9"  // another foundation
            fields[4] = advertised
            lines.append(fields.joined(separator: " "))
        }
        return lines.joined(separator: "\r\n")
    }

    /// Two different random SSRCs, neither 0.
    static func randomSSRCs() -> (video: UInt32, audio: UInt32) {
        let video = UInt32.random(in: 1...UInt32.max)
        var audio = UInt32.random(in: 1...UInt32.max)
        while audio == video { audio = UInt32.random(in: 1...UInt32.max) }
        return (video, audio)
    }
}
#endif
#endif
