#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `probe --units`, `encoders` and `devices`: listings checked against ffprobe, FFmpeg and real servers.
@Suite struct ListingCommandTests {
    func json(_ arguments: [String], env: [String] = []) throws -> Any {
        let result = try Tools.run("env", env + [Tools.onairExecutable] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: result.stdout)
    }

    @Test func unitsCoverTheWholeAnnexBFileAndEveryADTSFrame() throws {
        let dir = try Tools.temporaryDirectory("units")
        defer { try? FileManager.default.removeItem(at: dir) }
        let h264 = dir.appendingPathComponent("v.h264").path, aac = dir.appendingPathComponent("a.aac").path
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "50", "-c:v", "libx264",
            "-x264-params", "slices=2:aud=1:bframes=2", h264,
        ])
        try Tools.ffmpeg(["-f", "lavfi", "-i", "sine=sample_rate=44100:duration=2", "-c:a", "aac", aac])
        let video = try json(["probe", "--units", "--json", h264]) as? [String: Any] ?? [:]
        let units = video["units"] as? [[String: Any]] ?? []
        // Every byte of the file is a start code or a unit: sizes and offsets tile the file.
        let size = try FileManager.default.attributesOfItem(atPath: h264)[.size] as? Int ?? 0
        let last = try #require(units.last)
        #expect((last["offset"] as? Int ?? 0) + (last["size"] as? Int ?? 0) == size)
        let slices = units.filter { $0["slice_type"] != nil }
        #expect(slices.count == 100, "two slices per picture")
        #expect(units.filter { $0["type"] as? String == "AUD" }.count == 50)
        let frames = try Tools.ffprobeJSON(["-show_entries", "frame=pict_type", h264])["frames"] as? [[String: Any]] ?? []
        #expect(slices.filter { $0["slice_type"] as? String == "B" }.count == 2 * frames.filter { $0["pict_type"] as? String == "B" }.count)

        let audio = try json(["probe", "--units", "--json", aac]) as? [String: Any] ?? [:]
        let packets = try Tools.ffprobeJSON(["-count_packets", "-show_streams", aac])["streams"] as? [[String: Any]] ?? []
        #expect((audio["units"] as? [[String: Any]])?.count == Int(packets.first?["nb_read_packets"] as? String ?? ""))
    }

    @Test func encodersListsX264AsAvailableAndSaysWhyHardwareIsNot() throws {
        // Injected: no hardware encoders here, whatever this machine has.
        let list = try json(["encoders", "--json"], env: ["ONAIR_HARDWARE_ENCODERS=none"]) as? [[String: Any]] ?? []
        let x264 = list.first { $0["name"] as? String == "libx264" }
        #expect(x264?["opens"] as? Bool == true && x264?["codec"] as? String == "h264")
        #expect(list.contains { $0["name"] as? String == "aac" && $0["opens"] as? Bool == true })
        for entry in list where entry["opens"] as? Bool == false {
            #expect(!(entry["reason"] as? String ?? "").isEmpty, "\(entry["name"] ?? "") has a reason")
        }
        // A hardware encoder FFmpeg knows but this machine lacks is listed with the reason.
        let vaapi = list.first { $0["name"] as? String == "h264_vaapi" }
        #expect(vaapi?["hardware"] as? Bool == true && vaapi?["opens"] as? Bool == false)
    }

    @Test(.enabled(if: toolExists("Xvfb") && toolExists("pulseaudio"), "needs Xvfb and pulseaudio"))
    func devicesListsARunningScreenAndMicrophone() throws {
        let screen = try TestXServer(width: 320, height: 240)
        defer { screen.stop() }
        let pulse = try TestPulseServer()
        defer { pulse.stop() }
        let list = try json(["devices", "--json"], env: ["PULSE_SERVER=\(pulse.server)"]) as? [[String: Any]] ?? []
        #expect(list.contains { $0["kind"] as? String == "screen" && $0["spec"] as? String == "x11:\(screen.display)" }, "\(list)")
        #expect(list.contains { $0["kind"] as? String == "microphone" && ($0["spec"] as? String ?? "").contains(pulse.monitor) }, "\(list)")
    }
}
#endif
