#if os(Linux)
import Foundation
import OnAir
import OnAirTestSupport
import Testing

@testable import OnAirLive

/// Issue 43 end to end: `onair serve` recording 5 s segments with retention by age, size and free
/// space while its wall clock steps back an hour at 20 s and forward 40 days at 40 s (a preloaded
/// library shifting `CLOCK_REALTIME` only, the monotonic clock untouched, built at test time;
/// libfaketime would hide `CommandLine.arguments` from Swift). Then a second serve over the same
/// recording answers `/get` of 10 s spans at 20 random offsets: each MP4 lasts 10 s ± one frame
/// and ffmpeg shows first the frame at `start` (read from its frame code).
@Suite struct RecordingClockStepEndToEndTests {
    /// `clock_gettime` (and `gettimeofday`, `time`) with the wall clock shifted by the sum of the
    /// steps whose time has come (`ONAIR_TEST_CLOCK_STEPS=AT:SECONDS,…`, AT in seconds of
    /// `CLOCK_MONOTONIC` since the process started); `adjtimex` answering `TIME_OK` or
    /// `TIME_ERROR` as `ONAIR_TEST_CLOCK_SYNC` says (1 or 0).
    static let shimSource = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdlib.h>
        #include <string.h>
        #include <sys/time.h>
        #include <sys/syscall.h>
        #include <sys/timex.h>
        #include <time.h>
        #include <unistd.h>
        /* The kernel's own clocks, by system call: no symbol to look up before anything runs. */
        static int real_gettime(clockid_t id, struct timespec *t) { return (int)syscall(SYS_clock_gettime, id, t); }
        static double started, at[16], by[16];
        static int steps;
        static double seconds(const struct timespec *t) { return (double)t->tv_sec + t->tv_nsec / 1e9; }
        __attribute__((constructor)) static void setup(void) {
            struct timespec now;
            real_gettime(CLOCK_MONOTONIC, &now);
            started = seconds(&now);
            const char *text = getenv("ONAIR_TEST_CLOCK_STEPS");
            while (text && *text && steps < 16) {
                char *end;
                at[steps] = strtod(text, &end);
                if (*end != ':') break;
                by[steps] = strtod(end + 1, &end);
                steps++;
                text = *end == ',' ? end + 1 : end;
            }
        }
        static double shift(void) {
            struct timespec now;
            real_gettime(CLOCK_MONOTONIC, &now);
            double since = seconds(&now) - started, total = 0;
            for (int i = 0; i < steps; i++) if (since >= at[i]) total += by[i];
            return total;
        }
        int clock_gettime(clockid_t id, struct timespec *t) {
            int result = real_gettime(id, t);
            if (result == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) {
                long long ns = (long long)t->tv_sec * 1000000000LL + t->tv_nsec + (long long)(shift() * 1e9);
                t->tv_sec = ns / 1000000000LL;
                t->tv_nsec = ns % 1000000000LL;
            }
            return result;
        }
        int gettimeofday(struct timeval *tv, void *zone) {
            struct timespec t;
            clock_gettime(CLOCK_REALTIME, &t);
            if (tv) { tv->tv_sec = t.tv_sec; tv->tv_usec = t.tv_nsec / 1000; }
            return 0;
        }
        time_t time(time_t *out) {
            struct timespec t;
            clock_gettime(CLOCK_REALTIME, &t);
            if (out) *out = t.tv_sec;
            return t.tv_sec;
        }
        int adjtimex(struct timex *buffer) {
            const char *sync = getenv("ONAIR_TEST_CLOCK_SYNC");
            if (sync) return *sync == '1' ? TIME_OK : TIME_ERROR;
            int (*real)(struct timex *) = (int (*)(struct timex *))dlsym(RTLD_NEXT, "adjtimex");
            return real(buffer);
        }
        """#

    /// The shim built into `directory`.
    static func shim(in directory: URL) throws -> String {
        let source = directory.appendingPathComponent("clockshim.c")
        let library = directory.appendingPathComponent("libclockshim.so").path
        try shimSource.write(to: source, atomically: true, encoding: .utf8)
        let built = try Tools.run("cc", ["-shared", "-fPIC", "-O2", "-o", library, source.path, "-ldl"])
        guard built.status == 0 else { throw ToolError.failed("cc: \(built.stderr)") }
        return library
    }

    /// Each file's size, by path.
    static func sizes(_ index: SegmentIndex) -> [String: Int64] {
        Dictionary(index.scan().map { ($0.path, $0.size) }, uniquingKeysWith: max)
    }

    /// The frame code of the first picture ffmpeg shows of `file`: (index, capture time in s).
    static func firstShownFrame(_ file: String, width: Int = 320, height: Int = 240) throws -> (index: Int, time: Double)? {
        let decoded = try Tools.run(
            "ffmpeg", ["-v", "error", "-i", file, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        let luma = width * height, chroma = luma / 4
        guard decoded.stdout.count >= luma + 2 * chroma else { return nil }
        let bytes = [UInt8](decoded.stdout)
        let frame = VideoFrame(
            width: width, height: height, pixelFormat: .yuv420p,
            planes: [
                .init(bytes: Array(bytes[0..<luma]), bytesPerRow: width),
                .init(bytes: Array(bytes[luma..<luma + chroma]), bytesPerRow: width / 2),
                .init(bytes: Array(bytes[luma + chroma..<luma + 2 * chroma]), bytesPerRow: width / 2),
            ], pts: .zero)
        return FrameCode.read(from: frame).map { ($0.index, Double($0.captureMicroseconds) / 1e6) }
    }

    @Test(.timeLimit(.minutes(4)))
    func wallClockStepsLoseNoRecordingAndSpansCutToTheFrame() throws {
        let dir = try Tools.temporaryDirectory("clock-steps-e2e")
        defer { try? FileManager.default.removeItem(at: dir) }
        let library = try Self.shim(in: dir)
        let template = dir.path + "/rec/%path/%Y-%m-%d_%H-%M-%S-%f"
        let recording = [
            "--record-path", template, "--record-segment-duration", "5s", "--record-delete-after", "1d", "--record-max-size", "10G",
            "--record-min-free", "1M",
        ]
        let index = SegmentIndex(template: try RecordPathTemplate(template), pathName: "live")
        let server = try ServeTestServer(
            directory: dir, duration: 62, arguments: recording,
            environment: ["LD_PRELOAD": library, "ONAIR_TEST_CLOCK_STEPS": "20:-3600,40:3456000", "ONAIR_TEST_CLOCK_SYNC": "1"])
        defer { _ = server.finish(timeout: 0) }
        var seen: [[String: Int64]] = []
        let log = { server.process.stderr }
        // A step the server reports, within 3 s of the one the shim made: the machine's own wall
        // clock can move as well (in a fresh-clone CI run the 40-day step was reported as 3456001.646 s,
        // 1.6 s more; under the clock's 2 s tolerance, such a move is not a step of its own).
        let stepped = { (direction: String, seconds: Double) -> Bool in
            let prefix = "clock: the wall clock stepped \(direction) "
            return log().components(separatedBy: "\n").contains { line in
                guard let range = line.range(of: prefix) else { return false }
                let number = line[range.upperBound...].prefix { $0.isNumber || $0 == "." }
                return Double(number).map { abs($0 - seconds) < 3 } ?? false
            }
        }
        #expect(waitUntil(timeout: 40) { stepped("back", 3600) }, "\(log())")
        seen.append(Self.sizes(index))
        #expect(waitUntil(timeout: 40) { stepped("forward", 3_456_000) }, "\(log())")
        seen.append(Self.sizes(index))
        // Past the steps, while recording goes on: the steps counted, three runs listed.
        #expect(waitUntil(timeout: 30) { log().components(separatedBy: "recording: wrote").count > 10 }, "\(log())")
        let metrics = String(decoding: try server.get("/metrics").body, as: UTF8.self)
        #expect(metrics.contains("onair_clock_steps_total 2"), "\(metrics.split(separator: "\n").filter { $0.contains("clock") })")
        let list = try server.get("/list?path=live")
        let runs = try #require(try JSONSerialization.jsonObject(with: list.body) as? [[String: Any]])
        let starts = runs.compactMap { ($0["start"] as? String).flatMap(PlaybackQuery.parseRFC3339) }
        let durations = runs.compactMap { $0["duration"] as? Double }
        #expect(runs.count == 3 && starts.count == 3, "\(String(decoding: list.body, as: UTF8.self))")
        for run in 1..<min(3, starts.count) {
            #expect(starts[run] >= starts[run - 1].addingTimeInterval(durations[run - 1]), "runs overlap: \(runs)")
        }
        #expect(server.finish(timeout: 40), "\(log())")
        #expect(!log().contains("deleted"), "\(log())")

        // Nothing lost: every frame of the 62 s (15 fps) on disk, less the last second at most;
        // names never repeat; no file shrank.
        let segments = index.scan()
        #expect(Set(segments.map(\.path)).count == segments.count)
        let final = Self.sizes(index)
        for sizes in seen { for (path, size) in sizes { #expect((final[path] ?? 0) >= size, "\(path) shrank") } }
        var frames = 0
        for segment in segments {
            let probe = try Tools.run(
                "ffprobe",
                ["-v", "error", "-count_packets", "-select_streams", "v:0", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0"]
                    + [segment.path])
            frames += probe.stdoutText.split(whereSeparator: \.isNewline).lazy.compactMap { Int($0) }.first ?? 0
        }
        // Encoded, as the last line says ("stopped (…): N video frames, …"): a busy machine drops a few.
        let stopped = log().split(separator: "\n").last { $0.hasPrefix("stopped (") }
        let encoded = stopped.flatMap { line in
            line.range(of: "): ").flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) }
        }
        #expect((encoded ?? 0) > 62 * 15 / 2, "\(stopped ?? "no closing line")")
        #expect(frames >= (encoded ?? 62 * 15) - 15, "\(frames) frames on disk of \(encoded ?? 0) encoded")
        // The listed durations are the segments' own and sum to the recording.
        let total = segments.compactMap(\.duration).reduce(0, +)
        #expect(abs(total - Double(frames) / 15) < 0.5, "\(total) s listed for \(frames) frames")

        // A second serve (no shim) over the same recording: the earlier run's starts as recorded;
        // 20 spans of 10 s at random offsets, each cut to the frame.
        let reader = try ServeTestServer(directory: dir, duration: 60, arguments: recording, log: "serve-2.log")
        defer { _ = reader.finish(timeout: 0) }
        var random = TestRandom(seed: 43)
        let spans = PlaybackPlan.spans(segments, start: nil, end: nil).filter { $0.duration > 12 }
        try #require(!spans.isEmpty)
        for attempt in 0..<20 {
            let span = spans[attempt % spans.count]
            let start = span.start.addingTimeInterval(0.5 + Double.random(in: 0..<1, using: &random) * (span.duration - 11))
            let segment = try #require(segments.last { $0.start <= start })
            let file = dir.appendingPathComponent("span-\(attempt).mp4").path
            let query = "/get?path=live&start=\(PlaybackQuery.formatRFC3339(start))&duration=10&format=mp4"
            let answer = try reader.get(query)
            try #require(answer.status == 200, "\(query): \(String(decoding: answer.body.prefix(200), as: UTF8.self))")
            try answer.body.write(to: URL(fileURLWithPath: file))
            let probed = try Tools.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file])
            let duration = Double(probed.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            #expect(abs(duration - 10) <= 1.0 / 15 + 1e-3, "\(query): \(duration) s")
            // The segment's first frame and the asked offset into it give the frame due first.
            let origin = try #require(try Self.firstShownFrame(segment.path))
            let due = origin.time + start.timeIntervalSince(segment.start)
            let shown = try #require(try Self.firstShownFrame(file), "no frame code in \(file)")
            #expect(shown.time >= due - 1e-3 && shown.time < due + 1.0 / 15 + 1e-3, "\(query): shows \(shown.time), due \(due)")
        }
    }
}
#endif
