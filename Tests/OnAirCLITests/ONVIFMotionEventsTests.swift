#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// Motion as Home Assistant hears it: `onair serve --onvif --motion` reads a `file:` source (a
/// 25 s, 320x180 clip made here with ffmpeg: 10 s still, a 48x48 block moving for 5 s, 10 s still,
/// with sensor noise, a slow lighting ramp and a 6x6 dot moving throughout, below the minimum
/// area) and Home Assistant's library, onvif-zeep-async, pulls its events through a PullPoint
/// subscription (Tests/Tools/onvif_events.py, started as soon as serve names the port it bound,
/// so it is subscribed well before the block moves at 10 s). It must see one start within a second of the block's
/// first move and one end within the hold after it stops, each as both ONVIF topics, nothing
/// during the still parts; `--on-motion` ran for both; `/metrics` counted them. `file:` does not
/// loop: the session ends with the clip.
@Suite(.enabled(if: ONVIFClientPython.installed, "onvif-zeep-async is not installed (scripts/setup.sh)"))
struct ONVIFMotionEventsTests {
    static var client: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tools/onvif_events.py").path
    }

    @Test func homeAssistantSeesOneMotionStartAndEnd() throws {
        let dir = try Tools.temporaryDirectory("onvif-motion")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("motion.mp4").path
        let graph = [
            "color=c=0x606060:s=320x180:r=15:d=25,format=yuv420p[bg]", "color=c=white:s=48x48:r=15:d=25,format=yuv420p[box]",
            "color=c=black:s=6x6:r=15:d=25,format=yuv420p[dot]",
            "[bg][box]overlay=x='if(lt(t,10),10,if(lt(t,15),10+(t-10)*52,270))':y=66:eval=frame[a]",
            "[a][dot]overlay=x='mod(t*40,300)':y=20:eval=frame,eq=brightness='0.0045*t':eval=frame,noise=alls=8:allf=t",
        ]
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", graph.joined(separator: ";"), "-t", "25", "-c:v", "libx264", "-preset", "ultrafast", "-g", "15",
            "-pix_fmt", "yuv420p", clip,
        ])
        let hookLog = dir.appendingPathComponent("hook.log").path
        let token = "motion-s3cret"
        let server = try StreamTestProcess(
            "/usr/bin/env",
            [
                "STATE_DIRECTORY=" + dir.appendingPathComponent("state").path, Tools.onairExecutable, "serve", "--listen",
                "127.0.0.1:0", "--video", "file:\(clip)", "--audio", "none", "--token", token, "--onvif", "--motion",
                "--on-motion", "echo \"$ONAIR_MOTION $ONAIR_MOTION_TIME\" >> \(hookLog)", "--preset", "ultrafast",
            ], stderrPath: dir.appendingPathComponent("serve.log").path)
        defer { server.kill() }
        let port = try server.announcedPort("serving http://")
        let client = try StreamTestProcess(
            Tools.aiortcPython,
            [Self.client, "--host", "127.0.0.1", "--port", "\(port)", "--user", "onair", "--password", token, "--seconds", "36"],
            stderrPath: dir.appendingPathComponent("client.err").path, stdoutPath: dir.appendingPathComponent("client.json").path)
        #expect(client.wait(timeout: 75), "the client did not finish: \(server.stderr)")
        #expect(server.wait(timeout: 30), "serve did not end with its file: \(server.stderr)")
        let output = (try? String(contentsOf: dir.appendingPathComponent("client.json"), encoding: .utf8)) ?? ""
        let parsed = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let result = try #require(parsed, "onvif_events.py printed no JSON: \(output) \(client.stderr)")
        #expect(result["error"] == nil && result["fault"] == nil, "\(result)")
        #expect(result["pullpoint_support"] as? Bool == true)
        let messages = result["messages"] as? [[String: Any]] ?? []
        let cell = messages.filter { ($0["topic"] as? String) == "tns1:RuleEngine/CellMotionDetector/Motion" }
        let alarm = messages.filter { ($0["topic"] as? String) == "tns1:VideoSource/MotionAlarm" }
        // The state at subscription (no motion), then one start and one end.
        #expect(cell.map { $0["operation"] as? String } == ["Initialized", "Changed", "Changed"], "\(messages)")
        #expect(cell.map { $0["value"] as? String } == ["false", "true", "false"], "\(messages)")
        #expect(alarm.map { $0["value"] as? String } == ["false", "true", "false"], "\(messages)")
        #expect(alarm.first?["name"] as? String == "State" && cell.first?["name"] as? String == "IsMotion")
        // When, on the clip's time line: serve prints each change with its capture time.
        let times = { (word: String) -> [Double] in
            server.stderr.split(separator: "\n").filter { $0.hasPrefix("motion: \(word) at ") }.compactMap {
                Double($0.split(separator: " ")[3])
            }
        }
        let started = times("started"), ended = times("ended")
        print("motion: started at \(started) s, ended at \(ended) s of the clip")
        #expect(started.count == 1 && ended.count == 1, "\(server.stderr)")
        #expect((10.0...11.0).contains(started.first ?? 0), "motion started at \(started) (the block moves at 10 s)")
        #expect((15.0...17.5).contains(ended.first ?? 0), "motion ended at \(ended) (the block stops at 15 s, hold 2 s)")
        let hook = (try? String(contentsOfFile: hookLog, encoding: .utf8)) ?? ""
        #expect(hook.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) } == ["start", "end"], "\(hook)")
        let metrics = result["metrics"] as? [String] ?? []
        #expect(metrics.contains("onair_motion_events_total{change=\"started\"} 1"), "\(metrics)")
        #expect(metrics.contains("onair_motion_events_total{change=\"ended\"} 1"), "\(metrics)")
        #expect(metrics.contains("onair_motion_active 0"), "\(metrics)")
    }
}
#endif
