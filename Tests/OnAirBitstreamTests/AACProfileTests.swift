import Foundation
import OnAirBitstream
import OnAirTestSupport
import Testing

/// Object types other than LC that ffmpeg's encoder can write.
@Suite("AAC profiles against ffmpeg")
struct AACProfileTests {
    @Test(arguments: [("aac_main", 1), ("aac_ltp", 4)])
    func profileMatchesFFprobe(profile: String, objectType: Int) throws {
        let directory = try Tools.temporaryDirectory("aac-profile")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("\(profile).aac")
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100", "-t", "0.3", "-ac", "2",
            "-c:a", "aac", "-strict", "-2", "-profile:a", profile, "-f", "adts", url.path,
        ])
        let bytes = try AACTestMedia.bytes(url)
        let stream = ADTS.parse(bytes)
        let probe = try AACTestMedia.probe(url)
        #expect(stream.frames.count == probe.packets && stream.skippedBytes == 0)
        var rebuilt: [UInt8] = []
        for frame in stream.frames {
            #expect(frame.header.audioObjectType == objectType)
            let (config, raw) = try ADTS.unwrap(frame.serialized())
            #expect(config.profileName == probe.profile)
            rebuilt += try ADTS.wrap(raw, config: config)
        }
        #expect(rebuilt == bytes)
    }
}
