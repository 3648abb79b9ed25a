#if os(Linux)
import Foundation
import OnAirTestSupport

/// Measures the A/V offset of a recording of the synthetic source with ffmpeg alone, from the
/// timestamps ffmpeg decodes (`-copyts`): the presentation time of each white flash frame
/// (signalstats' mean luma) against the onset of the nearest beep (the RMS of 2 ms chunks of
/// high-passed audio rising past −20 dBFS). Independent of OnAir's own decoder and analysis.
enum FFmpegSyncJudge {
    /// Flash and beep times in seconds, and the offset (flash − beep, ms) of each paired flash.
    struct Judgement: CustomStringConvertible {
        var flashes: [Double] = []
        var beeps: [Double] = []
        var offsetsMilliseconds: [(time: Double, offset: Double)] = []
        var maximumOffsetMilliseconds: Double { offsetsMilliseconds.map { abs($0.offset) }.max() ?? .infinity }
        var description: String {
            let pairs = offsetsMilliseconds.map { String(format: "%.1f s: %+.1f ms", $0.time, $0.offset) }
            return "\(flashes.count) flashes, \(beeps.count) beeps, offsets [\(pairs.joined(separator: ", "))]"
        }
    }

    /// For a recording whose flashes fall on whole seconds of its video timeline: every beep's
    /// offset from the whole second of that timeline nearest to it (ms, positive when the beep is
    /// early), with the timeline placed by whichever flash frames survived. Robust to video frames
    /// dropped in real time (audio is never dropped); nil without a flash.
    static func beepsAgainstVideoSeconds(_ judgement: Judgement) -> (offsets: [(time: Double, offset: Double)], flashSpread: Double)? {
        let phases = judgement.flashes.map { $0 - $0.rounded() }.sorted()
        guard !phases.isEmpty else { return nil }
        let phase = phases[phases.count / 2]
        let offsets = judgement.beeps.map { beep -> (time: Double, offset: Double) in
            let second = (beep - phase).rounded() + phase
            return (beep, (second - beep) * 1000)
        }
        return (offsets, ((phases.last ?? 0) - (phases.first ?? 0)) * 1000)
    }

    /// Judges `path`, from `start` seconds on (ffmpeg seeks with the timestamps kept).
    static func judge(_ path: String, from start: Double? = nil) throws -> Judgement {
        let seek = start.map { ["-ss", String($0)] } ?? []
        let video = try Tools.run(
            "ffmpeg",
            ["-v", "error", "-copyts"] + seek + [
                "-i", path, "-map", "0:v:0", "-vf",
                "signalstats,metadata=mode=print:key=lavfi.signalstats.YAVG:file=-", "-f", "null", "-",
            ])
        guard video.status == 0 else { throw ToolError.failed("ffmpeg (video): \(video.stderr)") }
        let audio = try Tools.run(
            "ffmpeg",
            ["-v", "error", "-copyts"] + seek + [
                "-i", path, "-map", "0:a:0", "-af",
                "highpass=f=2000,asetnsamples=n=96:p=0,astats=metadata=1:reset=1,"
                    + "ametadata=mode=print:key=lavfi.astats.Overall.RMS_level:file=-", "-f", "null", "-",
            ])
        guard audio.status == 0 else { throw ToolError.failed("ffmpeg (audio): \(audio.stderr)") }
        var judgement = Judgement()
        judgement.flashes = rises(in: video.stdoutText, key: "lavfi.signalstats.YAVG", above: 200)
        judgement.beeps = rises(in: audio.stdoutText, key: "lavfi.astats.Overall.RMS_level", above: -20)
        for flash in judgement.flashes {
            guard let beep = judgement.beeps.min(by: { abs($0 - flash) < abs($1 - flash) }), abs(beep - flash) < 0.5 else { continue }
            judgement.offsetsMilliseconds.append((flash, (flash - beep) * 1000))
        }
        return judgement
    }

    /// The `pts_time` of every frame whose `key` value rises above `threshold` from at or below it.
    private static func rises(in text: String, key: String, above threshold: Double) -> [Double] {
        var times: [Double] = []
        var time: Double?
        var previous = -Double.infinity
        for line in text.split(separator: "\n") {
            if let range = line.range(of: "pts_time:") {
                time = Double(line[range.upperBound...].prefix { !$0.isWhitespace })
            } else if line.hasPrefix(key + "="), let value = Double(line.dropFirst(key.count + 1)) {
                if value > threshold, previous <= threshold, let time { times.append(time) }
                previous = value
            }
        }
        return times
    }
}
#endif
