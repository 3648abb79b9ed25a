#if os(Linux)
import Foundation
import OnAir

/// `onair play URL`: receive and decode a stream or file, report what arrived and how well.
struct PlayCommand: Command {
    static let name = "play"
    static let summary = "receive and decode a stream or file; report fps, errors, freezes, latency"

    let configuration: Player.Configuration
    let json: Bool
    let statsJSON: String?
    let display: Bool
    let analyzeScreen: Bool
    let screenOptions: ScreenPlayer.Options

    init(arguments: inout ArgumentList) throws {
        var configuration = Player.Configuration(url: "")
        if let duration = try arguments.option("--duration") {
            let seconds = try EncodingOptions.number(duration, "--duration")
            if seconds <= 0 { throw UsageError("--duration must be positive") }
            configuration.duration = .seconds(seconds)
        }
        if let timeout = try arguments.option("--timeout") {
            let seconds = try EncodingOptions.number(timeout, "--timeout")
            if seconds <= 0 { throw UsageError("--timeout must be positive") }
            configuration.openTimeout = .seconds(seconds)
        }
        configuration.measureLatency = arguments.flag("--measure-latency")
        if let hardware = try arguments.option("--hwaccel") {
            configuration.hardware = HardwareDecoding(hardware)
            if case .only(let type) = configuration.hardware, !HardwareDecoding.deviceTypes.contains(type) {
                throw UsageError(
                    "--hwaccel \(hardware): use auto, none or one of \(HardwareDecoding.deviceTypes.sorted().joined(separator: ", "))")
            }
        }
        let outputs = try arguments.options("-o", "--output")
        guard outputs.count <= 1 else { throw UsageError("play takes at most one -o OUT") }
        configuration.output = outputs.first
        json = arguments.flag("--json")
        statsJSON = try arguments.option("--stats-json")
        var screen = ScreenPlayer.Options()
        if let latency = try arguments.option("--latency") {
            let milliseconds = try EncodingOptions.number(latency, "--latency")
            guard (0...5000).contains(milliseconds) else { throw UsageError("--latency must be 0…5000 ms") }
            screen.latency = milliseconds / 1000
        }
        screen.fullscreen = arguments.flag("--fullscreen")
        screen.audio = !arguments.flag("--no-audio")
        display = !arguments.flag("--no-display")
        analyzeScreen = arguments.flag("--analyze-screen")
        let inputs = arguments.positionals()
        guard inputs.count == 1 else { throw UsageError("play takes exactly one URL") }
        configuration.url = inputs[0]
        screen.title = "onair play \(inputs[0])"
        screen.measureLatency = configuration.measureLatency
        screenOptions = screen
        self.configuration = configuration
    }

    func run() throws -> Int32 {
        if analyzeScreen {
            let report = try ScreenRecordingReport.analyze(path: configuration.url)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            }
            var line =
                "screen: \(report.distinctFrames) frames seen, \(report.outOfOrder) out of order, \(report.skipped) skipped (\(report.steadySkipped) in steady state)"
            if let latency = report.latencyMs {
                line += String(format: ", glass-to-glass p50 %.1f ms p95 %.1f ms", latency.p50, latency.p95)
            }
            if let offset = report.sync?.maxAVOffsetMilliseconds { line += String(format: ", A/V offset max %.1f ms", offset) }
            Console.status(line)
            return 0
        }
        let printer = try PlaybackPrinter(jsonPath: statsJSON)
        let signals = SignalWatcher()
        let playback = Playback(configuration, window: display ? screenOptions : nil) { event in
            switch event {
            case .statistics(let statistics): printer.show(statistics)
            case .note(let note): Console.status(note)
            case .stopped: break
            }
        }
        signals.whenReceived { playback.stop(reason: .interrupted(signal: signals.received ?? SIGINT)) }
        let outcome: Playback.Outcome
        do {
            outcome = try Blocking.wait { try await playback.run() }
        } catch {
            printer.end()
            throw error
        }
        printer.show(outcome.statistics)
        printer.end()
        let report = outcome.report
        let stopReason = outcome.reason
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        }
        var summary =
            "stopped (\(stopReason)): \(report.frames) frames, \(String(format: "%.2f", report.fps)) fps, \(report.decodeErrors) decode errors, \(report.freezes) freezes"
        if let video = report.video { summary += ", video decoded \(video.hardware.map { "on \($0)" } ?? "in software")" }
        let changes = report.changes
        if changes.pictureSize > 0 {
            summary +=
                ", \(changes.pictureSize) picture size change\(changes.pictureSize == 1 ? "" : "s") (\(changes.pictureSizes.joined(separator: " → ")))"
        }
        if changes.timestampJumps > 0 {
            summary += ", \(changes.timestampJumps) timestamp jump\(changes.timestampJumps == 1 ? "" : "s") joined"
        }
        if let latency = report.latencyMs {
            summary += String(format: ", latency p50 %.1f ms p95 %.1f ms max %.1f ms", latency.p50, latency.p95, latency.max)
        } else if configuration.measureLatency {
            summary += ", no frame carried a wall-clock code"
        }
        Console.status(summary)
        return 0
    }
}
#endif
