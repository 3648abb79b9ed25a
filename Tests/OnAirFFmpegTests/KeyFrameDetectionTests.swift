#if os(Linux)
import Testing

@testable import OnAirFFmpeg

/// Live playback without the demuxer's parser finds the first IDR access unit itself.
@Suite struct KeyFrameDetectionTests {
    // NAL headers: 0x09 AUD, 0x67 SPS, 0x68 PPS, 0x65 IDR slice, 0x41 non-IDR slice.
    @Test func anAnnexBAccessUnitWithAnIDRSliceStartsDecoding() {
        let idr: [UInt8] = [
            0, 0, 0, 1, 0x09, 0xF0, 0, 0, 0, 1, 0x67, 0x42, 0xC0, 0x1E, 0, 0, 0, 1, 0x68, 0xCE, 0x3C, 0x80,
            0, 0, 1, 0x65, 0x88, 0x84, 0x00,
        ]
        #expect(MediaFileDecoder.startsDecoding(idr))
        #expect(MediaFileDecoder.startsDecoding(Array(idr.dropFirst())))  // three-byte start code
    }

    @Test func otherPacketsDoNot() {
        let pFrame: [UInt8] = [0, 0, 0, 1, 0x09, 0x30, 0, 0, 1, 0x41, 0x9A, 0x02, 0x04]
        #expect(!MediaFileDecoder.startsDecoding(pFrame))
        // Length-prefixed (AVCC) data is not Annex B: its container flags keyframes.
        let avcc: [UInt8] = [0, 0, 0, 4, 0x65, 0x88, 0x84, 0x00]
        #expect(!MediaFileDecoder.startsDecoding(avcc))
        #expect(!MediaFileDecoder.startsDecoding([]))
        #expect(!MediaFileDecoder.startsDecoding([0, 0, 1]))
    }

    // H.265 NAL headers (two bytes, type in bits 1–6 of the first): 0x46 AUD (35), 0x40 VPS (32),
    // 0x26 IDR_W_RADL (19), 0x2A CRA (21), 0x02 TRAIL_R (1).
    @Test func anH265IRAPStartsDecodingOnlyWhenTheStreamIsH265() {
        let idr: [UInt8] = [0, 0, 0, 1, 0x46, 0x01, 0x50, 0, 0, 0, 1, 0x40, 0x01, 0x0C, 0, 0, 1, 0x26, 0x01, 0xAF, 0x10]
        let cra: [UInt8] = [0, 0, 0, 1, 0x2A, 0x01, 0xAF, 0x10]
        let trailing: [UInt8] = [0, 0, 0, 1, 0x46, 0x01, 0x50, 0, 0, 1, 0x02, 0x01, 0xD0, 0x22]
        #expect(MediaFileDecoder.startsDecoding(idr, hevc: true))
        #expect(MediaFileDecoder.startsDecoding(cra, hevc: true))
        #expect(!MediaFileDecoder.startsDecoding(trailing, hevc: true))
        // Read as H.264, the same bytes hold no IDR slice (0x26 & 0x1F is 6, an SEI).
        #expect(!MediaFileDecoder.startsDecoding(idr))
    }
}
#endif
