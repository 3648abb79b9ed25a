#if os(Linux)
import OnAir
import OnAirCore
import OnAirGStreamer
import Testing

/// Which payload types a WHEP answer sends with, and how keyframe requests are coalesced.
@Suite struct WebRTCChoiceTests {
    static func offer(_ videoProfiles: [String], audio: Bool = true) throws -> WebRTCOffer {
        var lines = [
            "v=0", "m=video 9 UDP/TLS/RTP/SAVPF " + videoProfiles.indices.map { "\(100 + $0)" }.joined(separator: " "), "a=recvonly",
        ]
        for (index, profile) in videoProfiles.enumerated() {
            lines += ["a=rtpmap:\(100 + index) H264/90000", "a=fmtp:\(100 + index) packetization-mode=1;profile-level-id=\(profile)"]
        }
        if audio { lines += ["m=audio 9 UDP/TLS/RTP/SAVPF 111", "a=recvonly", "a=rtpmap:111 opus/48000/2"] }
        return try WebRTCOffer(parsing: lines.joined(separator: "\r\n"))
    }

    @Test func baselineStreamPrefersConstrainedBaselineThenAnyDecoder() throws {
        let all = try WebRTCCodecChoice(offer: Self.offer(["640032", "42001f", "42e01f"]), profile: .baseline, streams: [.video, .audio])
        #expect(all.videoPayloadType == 102 && all.audioPayloadType == 111)
        let high = try WebRTCCodecChoice(offer: Self.offer(["640032"]), profile: .baseline, streams: [.video, .audio])
        #expect(high.videoPayloadType == 100)
        let videoOnly = try WebRTCCodecChoice(offer: Self.offer(["42e01f"]), profile: .baseline, streams: [.video])
        #expect(videoOnly.audioPayloadType == nil)
    }

    @Test func highStreamNeedsAHighDecoderAndSaysWhy() throws {
        #expect(throws: WebRTCCodecChoice.Refusal.self) {
            _ = try WebRTCCodecChoice(offer: Self.offer(["42e01f", "4d001f"], audio: false), profile: .high, streams: [.video])
        }
        do {
            _ = try WebRTCCodecChoice(offer: Self.offer(["42e01f"], audio: false), profile: .high, streams: [.video])
            Issue.record("a High stream was answered for a Constrained Baseline decoder")
        } catch let refusal as WebRTCCodecChoice.Refusal {
            #expect(refusal.description.contains("42e01f") && refusal.description.contains("--profile baseline"))
        }
        let high = try WebRTCCodecChoice(offer: Self.offer(["42e01f", "64001f"]), profile: .high, streams: [.video, .audio])
        #expect(high.videoPayloadType == 101)
    }

    @Test func coalescesRequestsToOneKeyFramePerInterval() {
        var coalescer = KeyFrameCoalescer(minimumInterval: 1)
        var answers: [Bool] = []
        answers.append(coalescer.request(at: 10.0))  // the first is forced at once
        answers.append(coalescer.request(at: 10.2))  // within the second: remembered
        answers.append(coalescer.request(at: 10.5))
        answers.append(coalescer.due(at: 10.9))
        answers.append(coalescer.due(at: 11.0))  // served when the second is over
        answers.append(coalescer.due(at: 11.5))  // once
        answers.append(coalescer.request(at: 11.6))
        coalescer.keyFrameSent()  // a GOP's own keyframe serves it
        answers.append(coalescer.due(at: 12.5))
        answers.append(coalescer.request(at: 12.7))
        #expect(answers == [true, false, false, false, true, false, false, false, true])
        #expect(coalescer.requests == 5 && coalescer.forced == 3)
    }
}
#endif
