#if os(Linux)
import OnAirGStreamer
import Testing

/// `WebRTCOffer` on offers as browsers and aiortc write them, and on broken ones.
@Suite struct WebRTCOfferTests {
    static let browser =
        [
            "v=0", "o=- 4611 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0 1",
            "m=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103", "c=IN IP4 0.0.0.0", "a=mid:0", "a=recvonly",
            "a=rtpmap:96 VP8/90000", "a=rtpmap:97 rtx/90000", "a=fmtp:97 apt=96",
            "a=rtpmap:102 H264/90000", "a=rtcp-fb:102 nack pli",
            "a=fmtp:102 level-asymmetry-allowed=1; packetization-mode=1;profile-level-id=42E01F",
            "a=rtpmap:103 rtx/90000", "a=fmtp:103 apt=102",
            "m=audio 9 UDP/TLS/RTP/SAVPF 111 0", "a=mid:1", "a=recvonly", "a=rtpmap:111 opus/48000/2",
        ].joined(separator: "\r\n") + "\r\n"

    @Test func readsSectionsCodecsAndParameters() throws {
        let offer = try WebRTCOffer(parsing: Self.browser)
        #expect(offer.sections.map(\.kind) == ["video", "audio"])
        #expect(offer.sections.map(\.mid) == ["0", "1"])
        #expect(offer.sections.allSatisfy { $0.direction == "recvonly" && $0.receives })
        let video = offer.sections[0].codecs
        #expect(video.map(\.payloadType) == [96, 97, 102, 103])
        #expect(video[2].name == "H264" && video[2].clockRate == 90_000)
        #expect(video[2].parameters["packetization-mode"] == "1")
        #expect(video[2].parameters["profile-level-id"] == "42E01F")
        #expect(video[3].parameters["apt"] == "102")
        let audio = offer.sections[1].codecs
        #expect(audio.map(\.name) == ["opus", "PCMU"])  // 0 is static: PCMU without an rtpmap
        #expect(audio[0].channels == 2 && audio[0].clockRate == 48_000)
    }

    @Test func refusesWhatIsNotAnOffer() {
        #expect(throws: WebRTCOffer.Problem.notSDP) { _ = try WebRTCOffer(parsing: "hello\r\nm=video 9 X 96\r\n") }
        #expect(throws: WebRTCOffer.Problem.noMedia) { _ = try WebRTCOffer(parsing: "v=0\r\ns=-\r\n") }
        #expect(throws: WebRTCOffer.Problem.tooLarge) {
            _ = try WebRTCOffer(parsing: "v=0\r\n" + String(repeating: "a=x\r\n", count: 20_000))
        }
        #expect(throws: WebRTCOffer.Problem.tooLarge) {
            _ = try WebRTCOffer(parsing: "v=0\r\n" + String(repeating: "m=audio 9 X 0\r\n", count: 17))
        }
    }

    @Test func skipsBrokenAttributes() throws {
        let text =
            "v=0\nm=video 9 X 96 300 -1 abc\na=rtpmap:\na=rtpmap:96\na=rtpmap:96 H264/\na=fmtp:96 ;;=;a=\na=rtpmap:99999999999999999999 x/1\n"
        let offer = try WebRTCOffer(parsing: text)
        #expect(offer.sections.count == 1)
        #expect(offer.sections[0].codecs.isEmpty)  // 96 never got a valid rtpmap; 300 and -1 are out of range
    }
}
#endif
