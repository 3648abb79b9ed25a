#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// WS-Discovery end to end, in two network namespaces of the test's own joined by a veth pair
/// (TEST-NET-1 addresses, multicast on; `wsdiscovery` skips loopback): two `onair serve --onvif`
/// devices on 192.0.2.1 (ports 8080 and 8081, their own state directories: two endpoints sharing
/// UDP 3702; named `Cam 8080` and `Cam 8081`) say Hello; the PyPI package `wsdiscovery`
/// (Tests/Tools/wsdiscovery_probe.py, on 192.0.2.2) hears both, finds both by a Probe for
/// `dn:NetworkVideoTransmitter` with their types, scopes (name and location too) and XAddrs on
/// the address the Probe came to; Debian's `onvif-util` (libonvif) lists both with `-a` by their
/// names, logs in to one and reads its profiles and RTSP URI; `wsdiscovery` hears their Bye when
/// they stop.
@Suite struct ONVIFDiscoveryTests {
    /// Why the test cannot run here, or nil.
    static let missing: String? = {
        guard getuid() == 0 else { return "needs root for network namespaces (ip netns)" }
        guard (try? Tools.run("ip", ["netns", "list"]).status) == 0 else { return "needs ip netns (iproute2)" }
        guard (try? Tools.run(Tools.aiortcPython, ["-c", "import wsdiscovery"]).status) == 0 else {
            return "needs the PyPI package wsdiscovery (scripts/setup.sh)"
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/onvif-util") else {
            return "needs onvif-util (Debian's onvif-tools, scripts/setup.sh)"
        }
        return nil
    }()

    static var client: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tools/wsdiscovery_probe.py").path
    }

    @Test(.enabled(if: missing == nil, "\(missing ?? "")"))
    func wsdiscoveryFindsBothDevicesWithTheirAddresses() throws {
        let dir = try Tools.temporaryDirectory("onvif-discovery")
        defer { try? FileManager.default.removeItem(at: dir) }
        let device = try TestNetworkNamespace(prefix: "onair-wsd-dev")
        defer { device.remove() }
        let finder = try TestNetworkNamespace(prefix: "onair-wsd-cli")
        defer { finder.remove() }
        let (near, far) = ("wsd\(getpid() % 100_000)a", "wsd\(getpid() % 100_000)b")
        let link = try Tools.run(
            "ip", ["link", "add", near, "netns", device.name, "type", "veth", "peer", "name", far, "netns", finder.name])
        #expect(link.status == 0, "\(link.stderr)")
        for (namespace, interface, address) in [(device, near, "192.0.2.1/24"), (finder, far, "192.0.2.2/24")] {
            try namespace.run("ip", ["link", "set", "lo", "up"])
            try namespace.run("ip", ["addr", "add", address, "dev", interface])
            try namespace.run("ip", ["link", "set", interface, "up", "multicast", "on"])
            try namespace.run("ip", ["route", "add", "224.0.0.0/4", "dev", interface])
        }
        let found = dir.appendingPathComponent("found.json").path
        let client = try StreamTestProcess(
            "ip", finder.exec(Tools.aiortcPython, [Self.client, "--hellos", "2", "--timeout", "3", "--wait", "30", "--listen", "20"]),
            stderrPath: dir.appendingPathComponent("client.err").path, stdoutPath: found)
        defer { client.kill() }
        let lines = { ((try? String(contentsOfFile: found, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
        #expect(waitUntil(timeout: 30) { lines().count >= 1 || !client.process.isRunning }, "\(client.stderr)")
        var servers: [StreamTestProcess] = []
        for port in [8080, 8081] {
            servers.append(
                try StreamTestProcess(
                    "ip",
                    device.exec(
                        "/usr/bin/env",
                        [
                            "STATE_DIRECTORY=" + dir.appendingPathComponent("state\(port)").path, Tools.onairExecutable, "serve",
                            "--listen", "192.0.2.1:\(port)", "--onvif", "--token", "t", "--size", "320x180", "--fps", "5", "--preset",
                            "ultrafast", "--video", "synthetic", "--audio", "none", "--duration", "60", "--rtsp-port",
                            "\(port - 8080 + 8554)", "--onvif-name", "Cam \(port)", "--onvif-location", "lab",
                        ]), stderrPath: dir.appendingPathComponent("serve\(port).log").path))
        }
        defer { for server in servers { server.kill() } }
        #expect(waitUntil(timeout: 40) { lines().count >= 2 || !client.process.isRunning }, "\(client.stderr)")
        let services = try #require(
            (try JSONSerialization.jsonObject(with: Data((lines().dropFirst().first ?? "{}").utf8)) as? [String: Any])?["services"]
                as? [[String: Any]], "\(lines()) \(client.stderr)")
        let endpoints = try [8080, 8081].map { port in
            "urn:uuid:"
                + (try String(contentsOf: dir.appendingPathComponent("state\(port)/onvif-device-uuid"), encoding: .utf8))
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(Set(services.compactMap { $0["epr"] as? String }) == Set(endpoints), "\(services)")
        for service in services {
            let epr = service["epr"] as? String ?? ""
            let port = epr == endpoints[0] ? 8080 : 8081
            #expect(service["xaddrs"] as? [String] == ["http://192.0.2.1:\(port)/onvif/device_service"], "\(service)")
            #expect(
                service["types"] as? [String] == [
                    "http://www.onvif.org/ver10/device/wsdl#Device", "http://www.onvif.org/ver10/network/wsdl#NetworkVideoTransmitter",
                ], "\(service)")
            let scopes = service["scopes"] as? [String] ?? []
            #expect(
                scopes.contains("onvif://www.onvif.org/type/Network_Video_Transmitter")
                    && scopes.contains("onvif://www.onvif.org/Profile/Streaming"))
            // Name and location as configured (wsdiscovery may give the scope percent-decoded).
            let decoded = scopes.map { $0.removingPercentEncoding ?? $0 }
            #expect(
                decoded.contains("onvif://www.onvif.org/name/Cam \(port)") && decoded.contains("onvif://www.onvif.org/location/lab"),
                "\(scopes)")
        }
        // Debian's onvif-util lists both by WS-Discovery (host, then name and hardware from the
        // scopes), logs in to the first that answers and reads its profiles and RTSP URI.
        let listed = try Tools.run("ip", finder.exec("onvif-util", ["-a"]), timeout: 60).stdoutText
        #expect(listed.contains("Found 2 cameras"), "\(listed)")
        for port in [8080, 8081] { #expect(listed.contains("(Cam \(port) onair)"), "\(listed)") }
        let session = try Tools.run(
            "ip", finder.exec("onvif-util", ["-u", "onair", "-p", "t", "192.0.2.1"]), stdin: Data("get profiles\nget rtsp\nquit\n".utf8),
            timeout: 60
        ).stdoutText
        let serial = session.range(of: "serial: [0-9a-f-]+", options: .regularExpression).map { session[$0].dropFirst(8) } ?? ""
        let index = try #require(endpoints.firstIndex(of: "urn:uuid:\(serial)"), "\(session)")
        #expect(session.contains("Token 0: main") && !session.contains("ERROR"), "\(session)")
        #expect(session.contains("rtsp://192.0.2.1:\(8554 + index)/live"), "\(session)")
        // SIGTERM: each says Bye on its way out.
        for server in servers { kill(server.process.processIdentifier, SIGTERM) }
        for server in servers { #expect(server.wait(timeout: 20), "\(server.stderr)") }
        #expect(client.wait(timeout: 30))
        let heard =
            (try JSONSerialization.jsonObject(with: Data((lines().last ?? "{}").utf8)) as? [String: Any])?["heard"] as? [[String: String]]
        #expect(Set(heard?.compactMap { $0["hello"] } ?? []) == Set(endpoints), "\(heard ?? [])")
        #expect(Set(heard?.compactMap { $0["bye"] } ?? []) == Set(endpoints), "\(heard ?? [])")
    }
}
#endif
