import Foundation
import OnAirTestSupport

/// Test media for the AAC tests, made with the ffmpeg CLI and inspected with ffprobe.
enum AACTestMedia {
    /// The 13 indexed sampling rates.
    static let allRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
    /// The channel counts ffmpeg's native AAC encoder is asked for.
    static let allChannelCounts = [1, 2, 3, 4, 5, 6, 8]

    /// Encodes `seconds` of a 440 Hz sine at `rate` Hz with `channels` channels into an ADTS file.
    static func makeADTS(
        rate: Int, channels: Int, seconds: Double = 0.5, in directory: URL,
        name: String? = nil
    ) throws -> URL {
        let url = directory.appendingPathComponent(name ?? "sine-\(rate)-\(channels).aac")
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(rate)", "-t", "\(seconds)",
            "-ac", "\(channels)", "-c:a", "aac", "-b:a", "64k", "-f", "adts", url.path,
        ])
        return url
    }

    /// Encodes a sine straight into an MP4/M4A file (ffmpeg's encoder writes the config).
    static func makeM4A(rate: Int, channels: Int, seconds: Double = 0.3, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("sine-\(rate)-\(channels).m4a")
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(rate)", "-t", "\(seconds)",
            "-ac", "\(channels)", "-c:a", "aac", "-b:a", "64k", url.path,
        ])
        return url
    }

    /// Stream-copies `url` into an M4A file (ffmpeg converts ADTS to an AudioSpecificConfig).
    static func remuxToM4A(_ url: URL) throws -> URL {
        let out = url.deletingPathExtension().appendingPathExtension("m4a")
        try Tools.ffmpeg(["-i", url.path, "-c", "copy", out.path])
        return out
    }

    /// What ffprobe says about the first audio stream of a file.
    struct Probe {
        var sampleRate: Int
        var channels: Int
        var profile: String
        var packets: Int
        var duration: Double?
    }

    /// Probes `url` with `-show_streams -count_packets`.
    static func probe(_ url: URL) throws -> Probe {
        let json = try Tools.ffprobeJSON(["-show_streams", "-count_packets", "-select_streams", "a:0", url.path])
        guard let stream = (json["streams"] as? [[String: Any]])?.first else {
            throw ToolError.failed("ffprobe found no audio stream in \(url.lastPathComponent)")
        }
        return Probe(
            sampleRate: Int(stream["sample_rate"] as? String ?? "") ?? -1,
            channels: stream["channels"] as? Int ?? -1,
            profile: stream["profile"] as? String ?? "",
            packets: Int(stream["nb_read_packets"] as? String ?? "") ?? -1,
            duration: Double(stream["duration"] as? String ?? ""))
    }

    /// The packets of the first audio stream of `url`, read from the file at the positions
    /// ffprobe reports (independent of our parsers).
    static func packets(of url: URL) throws -> [[UInt8]] {
        let json = try Tools.ffprobeJSON([
            "-show_packets", "-select_streams", "a:0",
            "-show_entries", "packet=pos,size", url.path,
        ])
        let data = [UInt8](try Data(contentsOf: url))
        var result: [[UInt8]] = []
        for packet in json["packets"] as? [[String: Any]] ?? [] {
            guard let pos = Int(packet["pos"] as? String ?? ""), let size = Int(packet["size"] as? String ?? ""),
                pos >= 0, pos + size <= data.count
            else {
                throw ToolError.failed("ffprobe packet without a usable position")
            }
            result.append(Array(data[pos..<(pos + size)]))
        }
        return result
    }

    /// Whether ffmpeg decodes `url` with no message at all at level error (plus extra input options).
    static func ffmpegDecodeErrors(_ url: URL, inputOptions: [String] = []) throws -> String {
        let result = try Tools.run(
            "ffmpeg",
            ["-hide_banner", "-nostdin", "-v", "error"] + inputOptions
                + ["-i", url.path, "-f", "null", "-"])
        return result.status == 0 ? result.stderr : "exit \(result.status): \(result.stderr)"
    }

    /// Reads a file's bytes.
    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }

    /// Writes bytes to a file in `directory`.
    static func write(_ bytes: [UInt8], named name: String, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }
}
