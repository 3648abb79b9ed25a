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
}
#endif
