import Foundation

/// Motion detection on the capture (`onair serve --motion`): what counts as motion and what to
/// run when it starts or ends. The detector compares a luma grid of the picture five times a
/// second (`MotionDetector`); an app hears the changes as `SessionEvent.motion`.
public struct MotionSettings: Sendable, Equatable {
    /// 0 (only large, strong changes) to 1 (the faintest); 0.5 by default.
    public var sensitivity = 0.5
    /// The smallest changed area that is motion, as a fraction of the picture (0.001–1; 0.02 by default).
    public var minimumArea = 0.02
    /// How long motion lasts after the last change seen (0.2 s to an hour; 2 s by default).
    public var holdTime: Duration = .seconds(2)
    /// Run with `/bin/sh -c` at each start and end of motion, with `ONAIR_MOTION` (`start` or
    /// `end`) and `ONAIR_MOTION_TIME` (the capture time in seconds) in its environment; never
    /// waited for by the capture. nil runs nothing.
    public var onMotion: String?

    /// The defaults: sensitivity 0.5, 2 % of the picture, a 2 s hold, no command.
    public init() {}

    /// Checks every field; throws the `SettingsError` naming the first out of range.
    public func validate() throws(SettingsError) {
        guard (0...1).contains(sensitivity) else {
            throw SettingsError(field: "motion.sensitivity", value: "\(sensitivity)", allowed: "0 to 1")
        }
        guard (0.001...1).contains(minimumArea) else {
            throw SettingsError(field: "motion.minimumArea", value: "\(minimumArea)", allowed: "0.001 to 1")
        }
        guard holdTime >= .milliseconds(200), holdTime <= .seconds(3600) else {
            throw SettingsError(field: "motion.holdTime", value: "\(holdTime)", allowed: "0.2 s to 3600 s")
        }
        if let onMotion, onMotion.isEmpty || onMotion.utf8.count > 4096 {
            throw SettingsError(field: "motion.onMotion", value: "\(onMotion.utf8.count) bytes", allowed: "1 to 4096 bytes")
        }
    }

    /// The detector's settings (its grid and 5 analysed frames a second).
    package var detector: MotionDetector.Settings {
        var settings = MotionDetector.Settings()
        settings.sensitivity = sensitivity
        settings.minimumArea = minimumArea
        settings.holdTime = Double(holdTime.components.seconds) + Double(holdTime.components.attoseconds) / 1e18
        return settings
    }
}
