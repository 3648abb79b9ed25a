#if os(Linux)
import CFFmpeg
import Foundation
import OnAirCore

/// Finds the capture devices present on this machine: V4L2 cameras, PulseAudio sources, ALSA
/// capture devices and X11 displays. Nothing present gives empty lists, never an error.
///
/// Each query may open devices or talk to servers briefly; call it off the main thread.
package enum DeviceDiscovery {
    /// V4L2 devices under `/dev` (`video*`), with the formats and sizes each offers.
    package static func cameras(directory: String = "/dev") -> [DiscoveredDevice] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let paths = names.filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
            .map { directory + "/" + $0 }
        let described = Dictionary(
            listSources(format: "v4l2").map { ($0.device, $0.description) },
            uniquingKeysWith: { first, _ in first })
        return paths.map { path in
            DiscoveredDevice(
                kind: .v4l2, device: path, description: described[path] ?? path,
                formats: v4l2Formats(path: path))
        }
    }

    /// PulseAudio sources (microphones and sink monitors) on `server` (nil: the default server);
    /// asks libavdevice, falling back to `pactl list short sources`.
    package static func pulseSources(server: String? = nil) -> [DiscoveredDevice] {
        var options: [String: String] = [:]
        if let server { options["server"] = server }
        let listed = listSources(format: "pulse", options: options)
        if !listed.isEmpty { return listed }
        var environment = ProcessInfo.processInfo.environment
        if let server { environment["PULSE_SERVER"] = server }
        guard let output = runTool("pactl", ["list", "short", "sources"], environment: environment) else { return [] }
        return output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            guard fields.count >= 2 else { return nil }
            return DiscoveredDevice(kind: .pulse, device: String(fields[1]), description: String(fields[1]))
        }
    }

    /// ALSA capture devices of the sound cards in `/proc/asound/cards` (none when there is no card).
    package static func alsaDevices(cardsFile: String = "/proc/asound/cards") -> [DiscoveredDevice] {
        guard let text = try? String(contentsOfFile: cardsFile, encoding: .utf8) else { return [] }
        let cards = parseCards(text)
        guard !cards.isEmpty else { return [] }
        // libavdevice's list names the hardware PCMs ("hw:CARD=…", "plughw:…", "sysdefault:…");
        // plugins such as "null" or "jack" are not capture hardware and are left out.
        let hardwarePrefixes = ["default", "sysdefault:", "hw:", "plughw:", "dsnoop:"]
        let listed = listSources(format: "alsa").filter { device in
            hardwarePrefixes.contains { device.device == $0 || device.device.hasPrefix($0) }
        }
        if !listed.isEmpty { return listed }
        return cards.map { DiscoveredDevice(kind: .alsa, device: "hw:\($0.index)", description: $0.name) }
    }

    /// X11 displays with a socket in `socketDirectory`, each with its screen size (by opening x11grab briefly).
    package static func screens(socketDirectory: String = "/tmp/.X11-unix") -> [DiscoveredDevice] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: socketDirectory)) ?? []
        let numbers = names.compactMap { $0.hasPrefix("X") ? Int($0.dropFirst()) : nil }.sorted()
        return numbers.compactMap { number in
            let display = ":\(number)"
            guard let reader = try? MediaFileReader(path: display, format: "x11grab", options: ["draw_mouse": "0"]),
                let stream = reader.streams.first(where: { $0.mediaType == .video })
            else { return nil }
            let pixelFormat =
                reader.codecParameters(of: stream.index)
                .flatMap { av_get_pix_fmt_name(AVPixelFormat(rawValue: $0.pointee.format)) }
                .map { String(cString: $0) } ?? "rawvideo"
            return DiscoveredDevice(
                kind: .x11grab, device: display, description: "X11 display \(display)",
                formats: [
                    .init(
                        pixelFormat: pixelFormat,
                        sizes: ["\(stream.width)x\(stream.height)"])
                ])
        }
    }

    /// What `avdevice_list_input_sources` reports for `format`, or nothing when it cannot list.
    static func listSources(format: String, options: [String: String] = [:]) -> [DiscoveredDevice] {
        guard let library = try? DeviceLibrary.loaded.get(),
            let kind = DeviceSource.Kind(rawValue: format), let input = av_find_input_format(format)
        else { return [] }
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        var list: UnsafeMutablePointer<AVDeviceInfoList>?
        let (count, _) = FFmpegLogCapture.capturing { library.listInputSources(input, nil, dictionary, &list) }
        defer { library.freeList(&list) }
        guard count > 0, let list, let devices = list.pointee.devices else { return [] }
        return (0..<Int(list.pointee.nb_devices)).compactMap { index in
            guard let info = devices[index], let name = info.pointee.device_name else { return nil }
            let description = info.pointee.device_description.map { String(cString: $0) } ?? ""
            return DiscoveredDevice(
                kind: kind, device: String(cString: name),
                description: description.isEmpty ? String(cString: name) : description)
        }
    }

    /// The formats a V4L2 device lists (its `list_formats` option logs them; the open then ends).
    static func v4l2Formats(path: String) -> [DiscoveredDevice.Format] {
        // Opening with the v4l2 format loads libavdevice (or fails, listing nothing).
        let (_, lines) = FFmpegLogCapture.capturing(maximumLevel: AV_LOG_INFO) {
            try? MediaFileReader(path: path, format: "v4l2", options: ["list_formats": "all"])
        }
        return parseV4L2Formats(lines)
    }

    /// Parses the fragments libavdevice's v4l2 `list_formats` logs: "Raw : yuyv422 : YUYV 4:2:2 :"
    /// or "Compressed: mjpeg : Motion-JPEG :", followed by one fragment per size (" 640x480").
    static func parseV4L2Formats(_ fragments: [String]) -> [DiscoveredDevice.Format] {
        var formats: [DiscoveredDevice.Format] = []
        for fragment in fragments {
            let parts = fragment.split(separator: ":", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count >= 3, parts[0] == "Raw" || parts[0] == "Compressed" {
                formats.append(.init(pixelFormat: parts[1], sizes: []))
                // Some builds log the sizes on the same line, after the description.
                if parts.count >= 4 { formats[formats.count - 1].sizes += sizes(in: parts[3...].joined(separator: ":")) }
            } else if !formats.isEmpty {
                formats[formats.count - 1].sizes += sizes(in: fragment)
            }
        }
        return formats
    }

    private static func sizes(in text: String) -> [String] {
        text.split(separator: " ").map(String.init).filter { token in
            let dims = token.split(separator: "x")
            return dims.count == 2 && (token.contains("{") || dims.allSatisfy { Int($0) != nil })
        }
    }

    /// Cards in `/proc/asound/cards` text: lines like " 0 [PCH            ]: HDA-Intel - HDA Intel PCH".
    static func parseCards(_ text: String) -> [(index: Int, name: String)] {
        text.split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let space = trimmed.firstIndex(of: " "), let index = Int(trimmed[..<space]) else { return nil }
            let name = trimmed.range(of: " - ").map { trimmed[$0.upperBound...].trimmingCharacters(in: .whitespaces) }
            return (index, name ?? "card \(index)")
        }
    }

    /// Runs a tool found on PATH, returning its standard output, or nil if it is missing or fails.
    private static func runTool(_ name: String, _ arguments: [String], environment: [String: String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}
#endif
