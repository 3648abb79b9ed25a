import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whether an executable is on PATH (tests that need it are skipped, with that reason, when not).
public func toolExists(_ name: String) -> Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
}

/// A private Xvfb X server for one test: `Xvfb :N -screen 0 WxHx24 -nolisten tcp -noreset`.
///
/// `-noreset` matters: without it the server resets when its last client disconnects, and the
/// root window colour `xsetroot` painted goes back to black.
public final class TestXServer {
    /// The display name to hand a client (":N").
    public let display: String
    /// The display number N.
    public let number: Int
    private let process = Process()

    /// Starts Xvfb on a free display number (:90…:189) with a `width`×`height` screen and waits until it answers.
    public init(width: Int = 320, height: Int = 240) throws {
        let fm = FileManager.default
        guard
            let free = (90...189).first(where: {
                !fm.fileExists(atPath: "/tmp/.X11-unix/X\($0)") && !fm.fileExists(atPath: "/tmp/.X\($0)-lock")
            })
        else { throw ToolError.failed("no free X display number in :90…:189") }
        number = free
        display = ":\(free)"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["Xvfb", display, "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runUnblocked()
        guard waitUntil(timeout: 10, { fm.fileExists(atPath: "/tmp/.X11-unix/X\(free)") }) else {
            stop()
            throw ToolError.failed("Xvfb \(display) did not start")
        }
    }

    /// Paints the root window `colour` ("#rrggbb") with `xsetroot -solid`.
    public func paint(_ colour: String) throws {
        let result = try Tools.run("xsetroot", ["-display", display, "-solid", colour])
        guard result.status == 0 else { throw ToolError.failed("xsetroot: \(result.stderr)") }
    }

    /// Kills the server and removes the socket and lock it leaves behind.
    public func stop() {
        kill(process)
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
    }

    deinit { stop() }
}

/// Kills a helper process with SIGKILL and reaps it. (SIGTERM is not enough: children inherit the
/// test runner's signal mask, in which SIGTERM is blocked.)
public func kill(_ process: Process) {
    guard process.isRunning else { return }
    _ = Glibc.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
}

/// A private PulseAudio server for one test, run as root without a session:
///
///     HOME=$DIR XDG_RUNTIME_DIR=$DIR PULSE_RUNTIME_PATH=$DIR/run \
///     pulseaudio --daemonize=yes --exit-idle-time=-1 -n --disable-shm --log-target=file:$DIR/log \
///       --load="module-native-protocol-unix socket=$DIR/native auth-anonymous=1" \
///       --load="module-null-sink sink_name=onair_test"
///
/// It daemonizes (returning once it is ready) because in the foreground it closes the descriptors
/// Foundation's `Process` watches, which then blocks in `waitpid` for it and stalls every other
/// child. Clients reach it with `server` ("unix:$DIR/native"); stop it with SIGKILL to the pid in
/// `$DIR/run/pid`. The sink's monitor source is `onair_test.monitor`.
public final class TestPulseServer {
    /// The server's private directory (socket, pid file, log).
    public let directory: URL
    /// The address a client reaches the server at ("unix:$DIR/native").
    public let server: String
    /// The null sink's name.
    public let sink = "onair_test"
    /// The null sink's monitor source, to capture what is played.
    public var monitor: String { "\(sink).monitor" }
    private var players: [Process] = []

    /// Starts a private PulseAudio daemon with a null sink and returns once it is ready.
    public init() throws {
        directory = try Tools.temporaryDirectory("onair-pulse")
        let socket = directory.appendingPathComponent("native").path
        server = "unix:\(socket)"
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("run"), withIntermediateDirectories: true)
        let result = try Tools.run(
            "env",
            [
                "HOME=\(directory.path)", "XDG_RUNTIME_DIR=\(directory.path)",
                "PULSE_RUNTIME_PATH=\(directory.appendingPathComponent("run").path)",
                "pulseaudio", "--daemonize=yes", "--exit-idle-time=-1", "-n", "--disable-shm",
                "--log-target=file:\(directory.appendingPathComponent("log").path)",
                "--load=module-native-protocol-unix socket=\(socket) auth-anonymous=1",
                "--load=module-null-sink sink_name=\(sink)",
            ])
        guard result.status == 0 else {
            let log = (try? String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)) ?? ""
            throw ToolError.failed("pulseaudio did not start: \(result.stderr) \(log)")
        }
    }

    private var pid: Int32? {
        let file = directory.appendingPathComponent("run/pid")
        return (try? String(contentsOf: file, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Plays a WAV file into the null sink with `paplay` (in the background until `stop`).
    public func play(_ wav: String) throws {
        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        player.arguments = ["paplay", "--server", server, "--device", sink, wav]
        player.standardOutput = FileHandle.nullDevice
        player.standardError = FileHandle.nullDevice
        try player.runUnblocked()
        players.append(player)
    }

    /// Stops the players and the daemon and removes its directory.
    public func stop() {
        for player in players { kill(player) }
        players = []
        if let pid { _ = Glibc.kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}

/// The frequency in `range` (steps of `step` Hz) with the most energy in `samples` (Goertzel).
public func dominantFrequency(_ samples: [Float], sampleRate: Int, range: ClosedRange<Double>, step: Double) -> Double {
    var best = (frequency: range.lowerBound, power: -1.0)
    var frequency = range.lowerBound
    while frequency <= range.upperBound {
        let coefficient = 2 * cos(2 * Double.pi * frequency / Double(sampleRate))
        var previous = 0.0, beforePrevious = 0.0
        for sample in samples {
            let current = Double(sample) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        if power > best.power { best = (frequency, power) }
        frequency += step
    }
    return best.frequency
}
