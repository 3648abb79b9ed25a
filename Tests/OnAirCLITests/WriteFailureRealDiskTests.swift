#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// The real `onair` on real failing storage, one case per moment of a file's life: a tmpfs with no
/// inode left (open), full before the start (header), filling while the file is finished (trailer),
/// full under HLS segments that reach it only when closed (close), and `/dev/full` behind a
/// `x.KIND` symlink for every file kind. (Filling mid-run, the packet moment, is
/// `OutputFailureTests.aFullDiskFailsOneOutputAndTheOtherIsComplete`.) Each time: exit status 1,
/// the output named with the system's reason, the other output complete.
@Suite struct WriteFailureRealDiskTests {
    /// Whether this process may mount a tmpfs (root in a container may not).
    static let mountPermitted: Bool = {
        guard getuid() == 0, let probe = try? OutputFailureTests.mountSmallDisk("mount-probe", options: "size=64k") else { return false }
        OutputFailureTests.unmount(probe.dir, probe.small)
        return true
    }()

    /// `seconds` of H.264 and PCM (or `audio`) at 25 fps, for `onair encode` and `onair play`.
    static func clip(
        in dir: URL, seconds: Int = 4, size: String = "320x240", audio: String = "pcm_s16le",
        ext: String = "mkv"
    ) throws -> String {
        let clip = dir.appendingPathComponent("clip.\(ext)").path
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25", "-f", "lavfi", "-i", "sine=sample_rate=48000",
            "-t", "\(seconds)", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", audio, clip,
        ])
        return clip
    }

    /// Runs `onair ARGUMENTS`; checks exit status 1, a line naming `failed` with `reason` (and
    /// `moment` when given), and that `healthy` (if any) holds every one of `frames` video frames.
    private func expectFailure(
        _ arguments: [String], failed: String, reason: String = "No space left on device",
        moment: String? = nil, healthy: String?, frames: Int
    ) throws {
        let result = try Tools.run(Tools.onairExecutable, arguments)
        let lines = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("rec ") && !$0.hasPrefix("[") }
        #expect(result.status == 1, "\(lines.joined(separator: "\n"))")
        let named = lines.filter { $0.contains(failed) && $0.contains(reason) }
        #expect(!named.isEmpty, "\(lines.joined(separator: "\n"))")
        if let moment { #expect(named.contains { $0.contains(moment) }, "\(lines.joined(separator: "\n"))") }
        if let healthy {
            #expect(try WriteFailureMomentTests.videoFrames(healthy) == frames, "the other output is incomplete")
            let clean = try Tools.run("ffmpeg", ["-v", "error", "-i", healthy, "-f", "null", "-"])
            #expect(clean.stderr.isEmpty, "\(clean.stderr)")
        }
    }

    @Test(.enabled(if: WriteFailureRealDiskTests.mountPermitted, "mounting a tmpfs is not permitted here"))
    func openFailsOnADiskWithNoInodeLeft() throws {
        // nr_inodes=1: the root directory takes the only inode, so no file can be created.
        let (dir, small) = try OutputFailureTests.mountSmallDisk("write-open", options: "size=1m,nr_inodes=1")
        defer { OutputFailureTests.unmount(dir, small) }
        let clip = try Self.clip(in: dir)
        let container = small.appendingPathComponent("a.mp4").path, healthy = dir.appendingPathComponent("b.mp4").path
        try expectFailure(
            ["encode", clip, "-o", container, "-o", healthy], failed: container, moment: "open",
            healthy: healthy, frames: 100)
        // An elementary stream is created before the encode starts: the command stops there, naming it.
        let elementary = small.appendingPathComponent("a.h264").path
        try expectFailure(["encode", clip, "-o", elementary, "-o", healthy], failed: elementary, healthy: nil, frames: 0)
    }

    @Test(.enabled(if: WriteFailureRealDiskTests.mountPermitted, "mounting a tmpfs is not permitted here"))
    func theHeaderFailsOnADiskFullBeforeTheStart() throws {
        let (dir, small) = try OutputFailureTests.mountSmallDisk("write-header", options: "size=256k")
        defer { OutputFailureTests.unmount(dir, small) }
        try Self.fill(small)
        let clip = try Self.clip(in: dir)
        // A classic MP4 writes ftyp and the mdat header at once.
        let failed = small.appendingPathComponent("a.mp4").path, healthy = dir.appendingPathComponent("b.mp4").path
        try expectFailure(
            ["encode", clip, "--faststart", "-o", failed, "-o", healthy], failed: failed, moment: "header",
            healthy: healthy, frames: 100)
    }

    /// The disk fills while the file is finished: AAC alone in an MP4 (`.m4a`) — the same bytes at
    /// every run — whose samples a fragmented file writes only in the trailer's fragment (it cuts
    /// fragments at video keyframes), and whose index (12 KB for a minute) a faststart file writes
    /// in the trailer and then moves to the front in a second pass.
    @Test(.enabled(if: WriteFailureRealDiskTests.mountPermitted, "mounting a tmpfs is not permitted here"), arguments: [false, true])
    func theTrailerFailsWhenTheDiskFillsWhileTheFileIsFinished(faststart: Bool) throws {
        let dir = try Tools.temporaryDirectory("write-trailer-reference")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.clip(in: dir, seconds: 60, size: "160x120")
        let flags = faststart ? ["--faststart"] : []
        // The same encode once to a roomy disk tells how many bytes come before the trailer.
        let reference = dir.appendingPathComponent("reference.m4a").path
        let made = try Tools.run(Tools.onairExecutable, ["encode", clip] + flags + ["-o", reference])
        try #require(made.status == 0, "\(made.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: reference))
        let boxes = Self.topLevelBoxes(bytes)
        let beforeTrailer =
            faststart
            ? bytes.count - (boxes.first { $0.type == "moov" }?.size ?? 0)
            : boxes.first { $0.type == "moof" }?.offset ?? bytes.count
        let trailerBytes = bytes.count - beforeTrailer
        // Half the trailer is more than a page: rounding the room down to pages still leaves
        // everything before the trailer room.
        try #require(trailerBytes >= 10_000, "the trailer writes only \(trailerBytes) bytes: \(boxes)")
        // Room for what comes before the trailer and half the trailer, in whole pages.
        let room = (beforeTrailer + trailerBytes / 2) / 4096 * 4096
        let (mountDir, small) = try OutputFailureTests.mountSmallDisk("write-trailer", options: "size=\(room / 1024)k")
        defer { OutputFailureTests.unmount(mountDir, small) }
        let failed = small.appendingPathComponent("a.m4a").path, healthy = mountDir.appendingPathComponent("b.mp4").path
        try expectFailure(
            ["encode", clip] + flags + ["-o", failed, "-o", healthy], failed: failed, moment: "finish",
            healthy: healthy, frames: 1500)
    }

    /// HLS keeps up to 32 KiB of a segment (and the whole playlist) in FFmpeg's buffer: on a full
    /// disk small segments fail only when the muxer closes them, which it does not check.
    @Test(.enabled(if: WriteFailureRealDiskTests.mountPermitted, "mounting a tmpfs is not permitted here"))
    func hlsSegmentsFailWhenTheyAreClosedOnAFullDisk() throws {
        let (dir, small) = try OutputFailureTests.mountSmallDisk("write-close", options: "size=256k")
        defer { OutputFailureTests.unmount(dir, small) }
        try Self.fill(small)
        let playlist = small.appendingPathComponent("stream.m3u8").path, healthy = dir.appendingPathComponent("b.mp4").path
        try expectFailure(
            [
                "record", "--fast", "--duration", "4", "--size", "160x120", "--bitrate", "100k",
                "-o", playlist, "-o", healthy,
            ], failed: playlist, moment: "close", healthy: healthy, frames: 120)
    }

    /// The issue's own case: 8 s at the default bitrate onto a 2 MB disk, which fills while the
    /// recording is being finished or just before.
    @Test(.enabled(if: WriteFailureRealDiskTests.mountPermitted, "mounting a tmpfs is not permitted here"))
    func aRecordingThatFillsTheDiskNearItsEndIsReported() throws {
        let (dir, small) = try OutputFailureTests.mountSmallDisk("write-record-end")
        defer { OutputFailureTests.unmount(dir, small) }
        let failed = small.appendingPathComponent("a.mp4").path, healthy = dir.appendingPathComponent("b.mp4").path
        try expectFailure(
            ["record", "--duration", "8", "--size", "640x360", "-o", failed, "-o", healthy],
            failed: failed, healthy: healthy, frames: 240)
    }

    /// Every kind `onair encode` writes, onto `/dev/full` behind a symlink named for the kind.
    @Test(arguments: ["mp4", "mp4 --faststart", "mov", "ts", "flv", "h264", "aac"])
    func encodeToDevFull(_ kind: String) throws {
        let dir = try Tools.temporaryDirectory("write-dev-full")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.clip(in: dir)
        let parts = kind.split(separator: " ").map(String.init)
        let link = dir.appendingPathComponent("x.\(parts[0])").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/full")
        let healthy = dir.appendingPathComponent("b.mp4").path
        let elementary = ["h264", "aac"].contains(parts[0])
        try expectFailure(
            ["encode", clip] + parts.dropFirst() + ["-o", link, "-o", healthy], failed: link,
            healthy: elementary ? nil : healthy, frames: 100)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "/dev/full", "the symlink was replaced")
    }

    /// `onair play -o` onto `/dev/full`: decoded video, decoded audio, a copy of the packets.
    @Test(arguments: ["y4m", "wav", "mp4"])
    func playToDevFull(_ kind: String) throws {
        let dir = try Tools.temporaryDirectory("play-dev-full")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.clip(in: dir, audio: "aac", ext: "mp4")
        let link = dir.appendingPathComponent("x.\(kind)").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/full")
        try expectFailure(["play", "--no-display", clip, "-o", link], failed: link, healthy: nil, frames: 0)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "/dev/full", "the symlink was replaced")
    }

    /// Fills the disk at `directory` to the last byte.
    static func fill(_ directory: URL) throws {
        let filled = try Tools.run("dd", ["if=/dev/zero", "of=\(directory.appendingPathComponent("filler").path)", "bs=4k"])
        try #require(filled.stderr.contains("No space left on device"), "\(filled.stderr)")
    }

    /// The top-level boxes of an MP4: type, offset and size.
    static func topLevelBoxes(_ bytes: Data) -> [(type: String, offset: Int, size: Int)] {
        var boxes: [(type: String, offset: Int, size: Int)] = []
        var offset = 0
        let base = bytes.startIndex
        while offset + 8 <= bytes.count {
            var size = bytes[base + offset..<base + offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[base + offset + 4..<base + offset + 8], as: UTF8.self)
            if size == 1, offset + 16 <= bytes.count {
                size = bytes[base + offset + 8..<base + offset + 16].reduce(0) { $0 << 8 | Int($1) }
            } else if size == 0 {
                size = bytes.count - offset
            }
            guard size >= 8 else { break }
            boxes.append((type, offset, size))
            offset += size
        }
        return boxes
    }
}
#endif
