#if os(Linux)
import Foundation
import OnAir

/// The segmented-recording flags `record` and `serve` share, read into `RecordingSettings`.
enum RecordingArguments {
    /// The help lines of the flags.
    static let help = """
          --record-path TEMPLATE       segmented recording: MediaMTX's placeholders %path %Y %m %d %H %M %S
                                       %f (microseconds) %z %s, folders created, extension added
                                       (e.g. recordings/%path/%Y-%m-%d/%H-%M-%S-%f)
          --record-format F            fmp4 (default) or mpegts
          --record-segment-duration D  cut at the first keyframe past D (default 1h)
          --record-part-duration D     flush and fsync every D (default 1s: what a crash may lose)
          --record-delete-after D      delete segments older than D
          --record-max-size SIZE       delete the oldest while all segments take more than SIZE
          --record-min-free SIZE       delete the oldest while the disk has less than SIZE free
          --record-clock-sync wait|ignore  wait (default): deleting by age waits while the kernel says the
                                       wall clock is not synchronized (no NTP yet); ignore: a device that
                                       never synchronizes (ages then rest on an unchecked clock)
          --on-segment-complete CMD    run CMD (sh -c) after each segment, with ONAIR_SEGMENT_PATH and
                                       ONAIR_SEGMENT_DURATION (also MTX_SEGMENT_PATH, MTX_SEGMENT_DURATION)
                                       DURATION: seconds or a number with s/m/h/d; SIZE: bytes or a number
                                       with k/M/G/T (powers of 1000)

        """

    /// The settings the flags give, or nil without `--record-path` (then the other flags are refused).
    static func parse(_ arguments: inout ArgumentList) throws -> RecordingSettings? {
        let template = try arguments.option("--record-path")
        let format = try arguments.option("--record-format")
        let segment = try arguments.option("--record-segment-duration")
        let part = try arguments.option("--record-part-duration")
        let deleteAfter = try arguments.option("--record-delete-after")
        let maxSize = try arguments.option("--record-max-size")
        let minFree = try arguments.option("--record-min-free")
        let hook = try arguments.option("--on-segment-complete")
        let clockSync = try arguments.option("--record-clock-sync")
        guard let template else {
            let given = [format, segment, part, deleteAfter, maxSize, minFree, hook, clockSync].contains { $0 != nil }
            if given { throw UsageError("the --record-… flags and --on-segment-complete need --record-path") }
            return nil
        }
        var settings = try RecordingSettings(template: template)
        if let format {
            guard let value = RecordingSettings.Format(rawValue: format) else {
                throw UsageError("--record-format takes fmp4 or mpegts")
            }
            settings.format = value
        }
        if let segment { settings.segmentDuration = try RecordingSettings.duration(parsing: segment) }
        if let part { settings.partDuration = try RecordingSettings.duration(parsing: part) }
        settings.retention = RecordingSettings.RetentionPolicy(
            deleteAfter: try deleteAfter.map(RecordingSettings.duration(parsing:)),
            maxBytes: try maxSize.map(RecordingSettings.size(parsing:)), minFreeBytes: try minFree.map(RecordingSettings.size(parsing:)))
        switch clockSync {
        case nil, "wait": break
        case "ignore": settings.retention.waitsForClockSync = false
        default: throw UsageError("--record-clock-sync takes wait or ignore")
        }
        if let hook {
            guard !hook.isEmpty else { throw UsageError("--on-segment-complete needs a command") }
            settings.onSegmentComplete = hook
        }
        do {
            try settings.validate()
        } catch {
            throw UsageError("\(error) (--record-segment-duration at least 0.1 s; --record-part-duration 0.05 s to the segment duration)")
        }
        return settings
    }
}
#endif
