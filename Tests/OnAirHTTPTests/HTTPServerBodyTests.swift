#if os(Linux)
import Foundation
import OnAirHTTP
import OnAirTestSupport
import Testing

/// Request bodies: taken only for the configured methods, bounded, handed whole to the handler with
/// the header fields a handler may read. curl is the client, on loopback.
@Suite struct HTTPServerBodyTests {
    /// Status and body of a curl request.
    static func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-s", "-m", "10", "-w", "\n%{http_code}"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.runUnblocked()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? -1, lines.dropLast().joined(separator: "\n").trimmingCharacters(in: .newlines))
    }

    @Test func bodiesAreBoundedAndReachTheHandlerWhole() throws {
        var configuration = HTTPServerConfiguration(address: try HTTPListenAddress(host: "127.0.0.1", port: 0))
        configuration.methods = ["GET", "POST", "DELETE"]
        configuration.maximumBodyBytes = 100_000
        let server = try HTTPServer(configuration: configuration) { request in
            let summary =
                "\(request.method) \(request.body.count) \(request.body.reduce(0) { $0 &+ Int($1) }) "
                + (request.headers["authorization"] ?? "-") + " " + (request.headers["content-type"] ?? "-")
            return .text(200, summary)
        }
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/x"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("http-body-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fits = dir.appendingPathComponent("fits"), big = dir.appendingPathComponent("big")
        try Data((0..<99_000).map { UInt8($0 % 251) }).write(to: fits)
        try Data(repeating: 7, count: 100_001).write(to: big)
        let sum = (0..<99_000).reduce(0) { $0 + $1 % 251 }

        let taken = try Self.curl([
            "-X", "POST", "-H", "Authorization: Bearer t", "-H", "Content-Type: application/sdp",
            "--data-binary", "@" + fits.path, url,
        ])
        #expect(taken.status == 200 && taken.body == "POST 99000 \(sum) Bearer t application/sdp", "\(taken)")
        #expect(try Self.curl(["-X", "POST", "--data-binary", "@" + big.path, url]).status == 413)
        // Chunked, so the length is not declared up front: cut while it arrives.
        #expect(try Self.curl(["-X", "POST", "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + big.path, url]).status == 413)
        #expect(try Self.curl(["-X", "DELETE", url]).body == "DELETE 0 0 - -")
        let refused = try Self.curl(["-X", "PUT", "--data-binary", "x", url])
        #expect(refused.status == 405)
        #expect(try Self.curl([url]).body.hasPrefix("GET 0 0"))
    }
}
#endif
