#if os(Linux)
#if canImport(OnAirGStreamer) && canImport(OnAirHTTP) && canImport(OnAirFFmpeg)
/// What a viewer's pipeline and its SDP answer are made of.
extension WebRTCFace {
    /// The viewer's pipeline: an appsrc per stream the offer takes, payloaded with its payload types.
    ///
    /// Each payloader's SSRC is chosen here and written in its caps, so webrtcbin's answer names it:
    /// without it the answer's `a=ssrc-group:FID` pairs RTX with SSRC 0 and a viewer cannot tell
    /// which stream a retransmission repairs (aiortc then dropped every one and froze for seconds
    /// after each loss), and the answer names the SSRC the packets carry (else webrtcbin 1.22 may
    /// answer before the first video buffer with another, and Chromium never shows the track).
    func launchDescription(_ choice: WebRTCCodecChoice, ssrcs: (video: UInt32, audio: UInt32) = WebRTCFace.randomSSRCs()) -> String {
        var parts = ["webrtcbin name=webrtc bundle-policy=max-bundle latency=0"]
        if let type = choice.videoPayloadType {
            parts.append(
                "appsrc name=video is-live=true format=time max-bytes=0 caps=video/x-h264,stream-format=byte-stream,alignment=au"
                    + " ! rtph264pay pt=\(type) ssrc=\(ssrcs.video) config-interval=-1"
                    + " aggregate-mode=zero-latency mtu=1200" + ServeRTSPPipeline.timestampOffset(configuration.timelineStart)
                    + " ! application/x-rtp,media=video,encoding-name=H264,payload=\(type),clock-rate=90000,ssrc=(uint)\(ssrcs.video)"
                    + " ! webrtc.")
        }
        if let type = choice.audioPayloadType {
            parts.append(
                "appsrc name=audio is-live=true format=time max-bytes=0 caps=audio/x-opus,channel-mapping-family=0,channels=2,rate=48000"
                    + " ! rtpopuspay pt=\(type) ssrc=\(ssrcs.audio) mtu=1200"
                    + " ! application/x-rtp,media=audio,encoding-name=OPUS,payload=\(type),clock-rate=48000,ssrc=(uint)\(ssrcs.audio)"
                    + " ! webrtc.")
        }
        return parts.joined(separator: " ")
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
