#if os(Linux)
import Foundation
import Synchronization
import OnAir

extension ServeCommand {
    static let configHelp = """
          --config FILE                read settings from FILE (YAML: every flag above as a key without the
                                       dashes, lists for repeatable flags, see README "Run as a service");
                                       ONAIR_<KEY> environment variables override the file, flags override both
          --print-config               print the effective configuration (secrets redacted) and exit
        """

    /// Takes `--config FILE` and `--print-config`, resolves the file and the `ONAIR_*` environment
    /// against the remaining arguments, and puts what they say before those arguments.
    static func configuration(_ arguments: inout ArgumentList) throws -> (resolution: ServeConfigResolution, print: Bool) {
        let file = try arguments.option("--config")
        let print = arguments.flag("--print-config")
        let resolution = try ServeConfigResolution(
            file: file, environment: ProcessInfo.processInfo.environment, commandLine: arguments.remaining)
        arguments.prepend(resolution.arguments)
        return (resolution, print)
    }
}

/// SIGHUP while serving: the arguments are parsed again with the file re-read; what can change
/// without touching viewers is applied, the rest named as needing a restart; a file that does not
/// parse is refused with a log line and the running configuration stays.
final class ReloadWatch: Sendable {
    private let state = Mutex<(key: Int?, current: ServeConfigResolution?)>((nil, nil))

    /// Starts watching for SIGHUP (`HangUpSignal`) for `command`'s `session`.
    func start(_ command: ServeCommand, _ session: Session) {
        state.withLock { $0.current = command.resolution }
        let key = HangUpSignal.shared.add { [weak self, weak session] in
            guard let self, let session else { return }
            self.reload(command.originalArguments, session)
        }
        state.withLock { $0.key = key }
    }

    private func reload(_ arguments: [String], _ session: Session) {
        do {
            var list = ArgumentList(arguments)
            let fresh = try ServeCommand(arguments: &list)
            try list.finish()
            let plan = state.withLock { state in
                defer { state.current = fresh.resolution }
                return state.current.map { ServeConfigReload(from: $0, to: fresh.resolution) }
            }
            if let limits = fresh.settings.serving?.server.limits {
                session.reloadServing(maxViewers: limits.maxViewers, viewerTimeout: limits.viewerTimeout)
            }
            if plan.map({ $0.applied.contains("bitrate") || $0.applied.contains("data-rate-limit") }) ?? false {
                let video = fresh.settings.videoEncoder
                session.reloadBitRate(average: video.averageBitRate, dataRateLimits: video.dataRateLimits)
            }
            var line = "reload: " + (plan?.summary ?? "done")
            if let plan, !plan.applied.filter(ServeConfigReload.recording.contains).isEmpty {
                if !(fresh.settings.recording.map { session.reloadRecording($0) } ?? false) {
                    line += " (the recording's settings could not be applied: the running ones go on)"
                }
            }
            if let plan, !plan.restartEncode.isEmpty {
                do {
                    if try !session.restartVideoEncode(fresh.settings, restartingCapture: plan.restartCapture) {
                        line += " (no video: nothing restarted)"
                    }
                } catch {
                    line += "; the new encode could not start (\(error)): the running one goes on"
                }
            }
            let tokensChanged = plan?.applied.contains("token") ?? false, usersChanged = plan?.applied.contains("users") ?? false
            if tokensChanged || usersChanged, let serving = fresh.settings.serving,
                let tokens = session.reloadCredentials(
                    tokens: tokensChanged ? serving.server.tokens : nil, users: usersChanged ? serving.server.users : nil)
            {
                // How many, never which token or user (the log may go to a journal).
                let why =
                    !usersChanged
                    ? "their token was removed"
                    : tokensChanged ? "their token or user was withdrawn" : "their user was removed or lost its password or read permission"
                line += "; \(tokens.cut) viewer\(tokens.cut == 1 ? "" : "s") cut (\(why))"
                for locked in tokens.lockedFaces { line += "; \(locked.face) admits no one until \(locked.until)" }
            }
            Console.status(line)
        } catch {
            Console.status("reload refused, the running configuration stays: \(error)")
        }
    }

    /// Stops watching.
    func cancel() {
        let key = state.withLock { state in
            defer { state.key = nil }
            return state.key
        }
        if let key { HangUpSignal.shared.remove(key) }
    }
}
#endif
