#if os(Linux)
import OnAir

extension ServeCommand {
    static let motionHelp = """
          --motion                     detect motion on the capture (a luma grid compared five times a
                                       second): printed, on /metrics (onair_motion_events_total) and, with
                                       --onvif, as ONVIF events (PullPoint: cell motion, motion alarm)
          --motion-sensitivity X       0 (only strong changes) to 1 (the faintest); default 0.5
          --motion-min-area F          the smallest moving area, a fraction of the picture (0.001–1;
                                       default 0.02)
          --motion-hold S              seconds motion lasts after the last change seen (default 2)
          --on-motion CMD              run CMD with /bin/sh -c at each start and end of motion, with
                                       ONAIR_MOTION=start|end and ONAIR_MOTION_TIME (seconds of capture)

        """

    /// `--motion` and its settings, or nil without `--motion`.
    static func motion(_ arguments: inout ArgumentList) throws -> MotionSettings? {
        let sensitivity = try arguments.option("--motion-sensitivity")
        let area = try arguments.option("--motion-min-area")
        let hold = try arguments.option("--motion-hold")
        let command = try arguments.option("--on-motion")
        guard arguments.flag("--motion") else {
            if [sensitivity, area, hold, command].contains(where: { $0 != nil }) {
                throw UsageError("--motion-sensitivity, --motion-min-area, --motion-hold and --on-motion go with --motion")
            }
            return nil
        }
        var motion = MotionSettings()
        if let sensitivity { motion.sensitivity = try EncodingOptions.number(sensitivity, "--motion-sensitivity") }
        if let area { motion.minimumArea = try EncodingOptions.number(area, "--motion-min-area") }
        if let hold {
            let seconds = try EncodingOptions.number(hold, "--motion-hold")
            guard seconds.isFinite, seconds >= 0.2, seconds <= 3600 else { throw UsageError("--motion-hold takes 0.2 to 3600 seconds") }
            motion.holdTime = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        motion.onMotion = command
        do {
            try motion.validate()
        } catch {
            throw UsageError(
                "\(error) (--motion-sensitivity 0 to 1, --motion-min-area 0.001 to 1, --on-motion 1 to 4096 bytes)")
        }
        return motion
    }
}
#endif
