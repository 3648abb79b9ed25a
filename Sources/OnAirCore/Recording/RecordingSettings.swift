import Foundation

/// A segmented recording: files cut at keyframes every `segmentDuration`, named from their
/// wall-clock start by `template`, flushed and synced to disk every `partDuration`, old ones
/// deleted by `retention`, a command run after each one.
public struct RecordingSettings: Sendable, Equatable {
    /// The container of the segments.
    public enum Format: String, Sendable, CaseIterable {
        /// Fragmented MP4 (`.mp4`), with OnAir's start box (`SegmentStartBox`).
        case fmp4
        /// MPEG-TS (`.ts`).
        case mpegts

        /// The file extension, without the dot.
        public var fileExtension: String { self == .fmp4 ? "mp4" : "ts" }
    }

    /// Where segments go (MediaMTX's placeholders; the extension is added).
    package var template: RecordPathTemplate
    /// `%path`: the stream's name ("live").
    public var pathName = "live"
    /// The container.
    public var format = Format.fmp4
    /// How long a segment lasts at least (cut on the next keyframe; default an hour).
    public var segmentDuration: Duration = .seconds(3600)
    /// The time between flushes to disk, each followed by an fsync (default a second): what a
    /// killed process or a pulled plug may lose.
    public var partDuration: Duration = .seconds(1)
    /// Which old segments are deleted.
    public var retention = RecordingSettings.RetentionPolicy()
    /// Run with `/bin/sh -c` after each segment is complete, with `ONAIR_SEGMENT_PATH` and
    /// `ONAIR_SEGMENT_DURATION` (and MediaMTX's `MTX_SEGMENT_PATH`, `MTX_SEGMENT_DURATION`,
    /// `MTX_PATH`) in its environment; nil runs nothing.
    public var onSegmentComplete: String?

    /// A recording into `template` with the defaults above.
    package init(template: RecordPathTemplate) {
        self.template = template
    }

    /// A recording into the path `template` (MediaMTX's placeholders, see the recording guide)
    /// with the defaults above; throws an `OnAirError` naming what is wrong with the template.
    public init(template: String, timeZone: TimeZone = .current) throws {
        self.template = try RecordPathTemplate(template, timeZone: timeZone)
    }

    /// The record path template as given.
    public var templateText: String { template.text }

    /// The duration `text` says, in the one syntax of recording settings (flags and configuration
    /// alike): seconds (`90`, `1.5`) or a number with `s`, `m`, `h` or `d`; throws an `OnAirError`.
    public static func duration(parsing text: String) throws -> Duration {
        try RecordingQuantity.duration(text)
    }

    /// The bytes `text` says: bytes (`500000`) or a number with `k`, `M`, `G` or `T` (powers of
    /// 1000); throws an `OnAirError`.
    public static func size(parsing text: String) throws -> Int64 {
        try RecordingQuantity.size(text)
    }

    /// Checks the path name and the durations; throws an `OnAirError` naming the bad one.
    public func validate() throws {
        try validateTyped()
    }

    /// `validate()` with the error's type.
    package func validateTyped() throws(RecordingSettingError) {
        try RecordPathTemplate.validatePathName(pathName)
        guard segmentDuration >= .milliseconds(100) else { throw RecordingSettingError.badDuration("\(segmentDuration)") }
        guard partDuration >= .milliseconds(50), partDuration <= segmentDuration else {
            throw RecordingSettingError.badDuration("\(partDuration)")
        }
    }

    /// The segment index these settings write.
    package var index: SegmentIndex { SegmentIndex(template: template, pathName: pathName, extensions: [format.fileExtension]) }
}

/// Runs a recording's segment-complete command without waiting for it (its exit is collected on
/// a thread of its own), so an upload never holds up the recording.
package enum SegmentHook {
    /// Starts `command` for the segment at `path` lasting `duration` seconds; returns false (and
    /// says why through `log`) when it cannot be started.
    @discardableResult
    public static func run(
        _ command: String, path: String, duration: Double, pathName: String, log: @Sendable (String) -> Void
    ) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        let seconds = String(format: "%.6f", duration)
        environment["ONAIR_SEGMENT_PATH"] = path
        environment["ONAIR_SEGMENT_DURATION"] = seconds
        environment["MTX_SEGMENT_PATH"] = path
        environment["MTX_SEGMENT_DURATION"] = seconds
        environment["MTX_PATH"] = pathName
        process.environment = environment
        do {
            try process.run()
        } catch {
            log("recording: cannot run the segment-complete command: \(error)")
            return false
        }
        Thread.detachNewThread { process.waitUntilExit() }
        return true
    }
}
