#if os(Linux)
import Foundation
import OnAirGStreamer
import OnAirServing
import OnAirTestSupport
import Testing

/// The limits gst-rtsp-server does not set, against raw clients (Tests/Tools/rtsp_clients.py): a
/// request whose header lines never end, one sent a byte at a time, a connection that asks nothing,
/// more connections than allowed — while GStreamer's own RTSP client plays over interleaved TCP
/// (its RTCP travels on the same connection, so it must not be taken for a request) and is not cut.
@Suite(.serialized) struct RTSPServerGuardTests {
    static let clients = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/rtsp_clients.py").path

    /// What each command printed last (or its status and errors), as it is collected from threads.
    final class Outputs: @unchecked Sendable {
        private let lock = NSLock()
        private var texts: [String]
        init(count: Int) { texts = Array(repeating: "", count: count) }
        func set(_ index: Int, _ text: String) {
            lock.lock()
            texts[index] = text
            lock.unlock()
        }
        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return texts
        }
    }

    /// Runs the commands at once, each on a thread of its own (`concurrentPerform` runs only as
    /// many at a time as the machine has cores, so on two cores a client could start after the
    /// others ended); their last lines of standard output as JSON objects, in order.
    static func together(_ commands: [(String, [String])]) -> [[String: Any]] {
        let outputs = Outputs(count: commands.count)
        let group = DispatchGroup()
        for (index, command) in commands.enumerated() {
            group.enter()
            Thread.detachNewThread {
                let result = try? Tools.run(command.0, command.1)
                let last = result?.stdoutText.split(separator: "\n").last.map(String.init) ?? ""
                outputs.set(index, last.hasPrefix("{") ? last : "{\"status\": \(result?.status ?? -1)}")
                group.leave()
            }
        }
        group.wait()
        return outputs.all.map { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) ?? [:] }
    }

    static func frames(_ path: String) throws -> Int {
        let text = try Tools.run(
            "ffprobe",
            ["-v", "error", "-count_frames", "-select_streams", "v", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path]
        ).stdoutText
        return text.split(whereSeparator: \.isNewline).first.flatMap { Int($0.filter(\.isNumber)) } ?? 0
    }

    @Test func hostileRequestsAndIdleConnectionsAreCutWhileAnInterleavedPlayerIsNot() throws {
        let dir = try Tools.temporaryDirectory("rtsp-guard")
        defer { try? FileManager.default.removeItem(at: dir) }
        let feeder = RTSPServerTests.Feeder(units: try RTSPServerTests.accessUnits(in: dir), admitting: 10)
        var configuration = RTSPServerConfiguration(launch: "( appsrc name=video is-live=true format=time ! rtph264pay name=pay0 pt=96 )")
        configuration.port = 0
        configuration.requestTimeout = 2
        configuration.sessionTimeout = 3
        configuration.connectionPolicy = RTSPGuardPolicy(limits: .init(configuration))
        let server = try RTSPServer(configuration: configuration, delegate: feeder)
        defer { server.stop() }
        let port = "\(server.port)", played = dir.appendingPathComponent("tcp.ts").path
        let outputs = Self.together([
            (
                "timeout",
                [
                    "-s", "INT", "9", "gst-launch-1.0", "-q", "-e", "rtspsrc", "location=rtsp://127.0.0.1:\(port)/live",
                    "protocols=tcp", "latency=100", "!", "rtph264depay", "!", "h264parse", "!", "mpegtsmux", "!", "filesink",
                    "location=\(played)",
                ]
            ),
            ("python3", [Self.clients, "flood", port, "8"]),
            ("python3", [Self.clients, "trickle", port, "8", "0.2"]),
            ("python3", [Self.clients, "idle", port, "8"]),
            ("python3", [Self.clients, "timed", port, "describe", "0.3"]),
        ])
        let flood = outputs[1], trickle = outputs[2], idle = outputs[3], other = outputs[4]
        // Cut once 4 × 16 KiB + 16 KiB of one request are in, at the next check (a quarter second).
        #expect(flood["cut"] as? Bool == true && (flood["seconds"] as? Double ?? 99) < 3, "flood: \(flood)")
        #expect(
            trickle["cut"] as? Bool == true && (1.9...3.5).contains(trickle["seconds"] as? Double ?? 0), "trickle: \(trickle)")
        #expect(
            idle["options"] as? Int == 200 && idle["cut"] as? Bool == true && (2.9...4.5).contains(idle["seconds"] as? Double ?? 0),
            "idle: \(idle)")
        // gst-rtsp-server reads a connection for as long as bytes keep coming: without the cut, the
        // flood held its loop and no one else got an answer (a DESCRIBE waited over 10 s).
        #expect(other["status"] as? Int == 200 && (other["seconds"] as? Double ?? 99) < 3, "DESCRIBE during the flood: \(other)")
        // Nine seconds of a 15 fps stream over interleaved TCP, RTCP going back on the same
        // connection, longer than the request and idle limits: not cut.
        let frames = try Self.frames(played)
        #expect(frames >= 100, "the interleaved player got \(frames) frames: \(outputs[0])")
    }

    @Test func connectionsPastTheLimitAreClosedOnArrival() throws {
        let dir = try Tools.temporaryDirectory("rtsp-guard-limit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let feeder = RTSPServerTests.Feeder(units: [], admitting: 10)
        var configuration = RTSPServerConfiguration(launch: "( appsrc name=video is-live=true format=time ! rtph264pay name=pay0 pt=96 )")
        configuration.port = 0
        configuration.connectionLimit = 3
        configuration.connectionPolicy = RTSPGuardPolicy(limits: .init(configuration))
        let server = try RTSPServer(configuration: configuration, delegate: feeder)
        defer { server.stop() }
        let held = Self.together([("python3", [Self.clients, "hold", "\(server.port)", "5", "1"])])[0]
        #expect(held["closed_at_once"] as? [Int] == [3, 4] && held["answered"] as? [Int] == [200, 200, 200], "\(held)")
        // Once the server has seen those go (it learns of each close on its loop), three are let in again.
        var again: [String: Any] = [:]
        let admitted = waitUntil(timeout: 10) {
            again = Self.together([("python3", [Self.clients, "hold", "\(server.port)", "3", "0"])])[0]
            return again["closed_at_once"] as? [Int] == []
        }
        #expect(admitted && again["answered"] as? [Int] == [200, 200, 200], "\(again)")
    }

    @Test func stoppingTheServerClosesItsConnections() throws {
        let feeder = RTSPServerTests.Feeder(units: [], admitting: 10)
        var configuration = RTSPServerConfiguration(launch: "( appsrc name=video is-live=true format=time ! rtph264pay name=pay0 pt=96 )")
        configuration.port = 0
        let server = try RTSPServer(configuration: configuration, delegate: feeder)
        let port = "\(server.port)"
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { server.stop() }
        // An OPTIONS answered, then the connection held until the server goes (well before its idle limit).
        let held = Self.together([("python3", [Self.clients, "idle", port, "8"])])[0]
        #expect(
            held["options"] as? Int == 200 && held["cut"] as? Bool == true && (held["seconds"] as? Double ?? 99) < 4, "\(held)")
    }
}
#endif
