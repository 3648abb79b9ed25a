#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// Every Swift block of the README and of the DocC articles compiles as a program in a scratch
/// package that depends on OnAir by path, as a reader would paste it (one build of OnAir for all
/// of them, and for the Examples package's programs, which ExamplesTests runs); the blocks that
/// say `// Writes FILE…` are run and their files checked with ffprobe.
@Suite(.serialized) struct DocumentationSnippetTests {
    /// One ```swift block: where it is and its text.
    struct Snippet: CustomStringConvertible {
        var file: String
        var line: Int
        var code: String
        var target: String
        /// The files the block says it writes (`// Writes a.mp4 b.h264`).
        var writes: [String] {
            code.split(separator: "\n").first { $0.hasPrefix("// Writes ") }
                .map { $0.dropFirst("// Writes ".count).split(separator: " ").map(String.init) } ?? []
        }
        var description: String { "\(file):\(line)" }
    }

    static let root = Tools.packageRoot

    /// The README, the guides in docs/ and every article of the catalog.
    static func documents() throws -> [URL] {
        func markdown(in folder: String) throws -> [URL] {
            try FileManager.default.contentsOfDirectory(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }
        }
        return [root.appendingPathComponent("README.md")] + (try markdown(in: "docs")) + (try markdown(in: "Sources/OnAir/OnAir.docc"))
    }

    static func snippets() throws -> [Snippet] {
        var found: [Snippet] = []
        for document in try documents() {
            let lines = try String(contentsOf: document, encoding: .utf8).components(separatedBy: "\n")
            var index = 0
            while index < lines.count {
                guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else { index += 1; continue }
                let start = index + 1
                var end = start
                while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" { end += 1 }
                let name = document.deletingPathExtension().lastPathComponent.filter { $0.isLetter || $0.isNumber }
                found.append(
                    Snippet(
                        file: document.lastPathComponent, line: start, code: lines[start..<end].joined(separator: "\n"),
                        target: "Snippet\(name)\(start)"))
                index = end + 1
            }
        }
        return found
    }

    /// The programs of Examples/ (Examples/Sources/NAME/main.swift), built beside the blocks.
    static let examples = ["StreamAppFrames", "MiniPlayer"]

    /// The directory of the programs: the blocks and the examples built once for both suites (one
    /// build of OnAir instead of two, a minute of CI each) — the ones .ci/versioned-consumer.sh
    /// built beside the `onair` the suite runs when they are there and made from exactly these
    /// sources (CI: no third build of OnAir in the middle of the suite), else the scratch
    /// package's.
    static let programs = Result {
        let found = try snippets()
        return try prebuilt(found) ?? build(found)
    }

    /// `snippets/` beside `$ONAIR_EXECUTABLE` (.ci/versioned-consumer.sh's programs, each with
    /// its source as NAME.swift) if it holds every block and example, each from the same source.
    static func prebuilt(_ snippets: [Snippet]) throws -> URL? {
        guard let executable = ProcessInfo.processInfo.environment["ONAIR_EXECUTABLE"], !executable.isEmpty else { return nil }
        let directory = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("snippets")
        var sources = snippets.map { ($0.target, $0.code) }
        for example in examples {
            let path = root.appendingPathComponent("Examples/Sources/\(example)/main.swift")
            sources.append((example, try String(contentsOf: path, encoding: .utf8)))
        }
        for (target, code) in sources {
            let source = directory.appendingPathComponent("\(target).swift")
            guard (try? String(contentsOf: source, encoding: .utf8)) == code,
                FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(target).path)
            else { return nil }
        }
        return directory
    }

    /// Writes the scratch package (under .build, so its build is kept between runs) and builds it:
    /// a program per block, and the Examples package's programs from their own sources.
    static func build(_ snippets: [Snippet]) throws -> URL {
        let package = root.appendingPathComponent(".build/snippets")
        try? FileManager.default.removeItem(at: package.appendingPathComponent("Sources"))
        for snippet in snippets {
            let directory = package.appendingPathComponent("Sources/\(snippet.target)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try snippet.code.write(to: directory.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        }
        for example in examples {
            let directory = package.appendingPathComponent("Sources/\(example)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: root.appendingPathComponent("Examples/Sources/\(example)/main.swift"),
                to: directory.appendingPathComponent("main.swift"))
        }
        let targets = (snippets.map(\.target) + examples).map {
            "        .executableTarget(name: \"\($0)\", dependencies: [.product(name: \"OnAir\", package: \"OnAir\")]),"
        }
        let manifest = """
            // swift-tools-version:6.0
            // Made by DocumentationSnippetTests: one program per Swift block of the README and the articles.
            import PackageDescription
            let package = Package(
                name: "Snippets",
                dependencies: [.package(name: "OnAir", path: "\(root.path)")],
                targets: [
            \(targets.joined(separator: "\n"))
                ],
                swiftLanguageModes: [.v6]
            )
            """
        try manifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let result = try Tools.run("swift", ["build", "--package-path", package.path])
        let output = result.stdoutText + result.stderr
        guard result.status == 0 else { throw ToolError.failed("the documentation's Swift blocks do not build:\n\(output)") }
        let warnings = output.split(separator: "\n").filter { $0.contains("warning:") && $0.contains("/.build/snippets/Sources/") }
        guard warnings.isEmpty else {
            throw ToolError.failed("the documentation's Swift blocks build with warnings:\n\(warnings.joined(separator: "\n"))")
        }
        let bin = try Tools.run("swift", ["build", "--package-path", package.path, "--show-bin-path"])
        return URL(fileURLWithPath: bin.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func everyBlockCompilesAndTheRecordingOnesRun() throws {
        let snippets = try Self.snippets()
        // The README's example, the library guide and the six articles each show code.
        #expect(snippets.count >= 8, "found \(snippets)")
        let bin = try Self.programs.get()
        print("documentation programs in \(bin.path)")
        for snippet in snippets where !snippet.writes.isEmpty {
            let dir = try Tools.temporaryDirectory("snippet")
            defer { try? FileManager.default.removeItem(at: dir) }
            let process = Tools.process(bin.appendingPathComponent(snippet.target).path, [])
            process.currentDirectoryURL = dir
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.runUnblocked()
            let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(snippet) exited \(process.terminationStatus): \(errors)")
            for file in snippet.writes {
                let path = dir.appendingPathComponent(file).path
                let info = try? Tools.ffprobeJSON(["-count_packets", "-show_streams", path])
                let streams = info?["streams"] as? [[String: Any]] ?? []
                let packets = streams.compactMap { Int($0["nb_read_packets"] as? String ?? "") }.reduce(0, +)
                #expect(!streams.isEmpty && packets > 10, "\(snippet): \(file) holds \(packets) packets")
                // Decoded whole with no message. The frames keep the file's own time base: frames
                // stamped in real time (AppSource.now()) are variable-rate, and in ffmpeg's default
                // 1/frame-rate output time base two of them ~1/30 s apart can round to one tick
                // (its null muxer then complains of equal timestamps that the file does not have).
                let decoded = try Tools.run("ffmpeg", ["-v", "error", "-i", path, "-enc_time_base", "-1", "-f", "null", "-"])
                #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(snippet): \(file): \(decoded.stderr)")
                // No two pictures share a presentation time.
                let times = try Tools.run(
                    "ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pts", "-of", "csv=p=0", path]
                ).stdoutText.split(whereSeparator: \.isNewline).compactMap { line in
                    line.split(separator: ",").first.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                }
                #expect(Set(times).count == times.count, "\(snippet): \(file): repeated video times \(times.prefix(80))")
            }
        }
    }
}
#endif
