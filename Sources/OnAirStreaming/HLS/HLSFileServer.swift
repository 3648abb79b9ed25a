#if os(Linux)
import Foundation

#if canImport(OnAirHTTP)
import OnAirHTTP

/// Serves an HLS directory over HTTP (libmicrohttpd) on the loopback interface: `GET`/`HEAD` of
/// playlists, segments and init segments directly inside `directory`, 404 for anything else,
/// including any path that leaves the directory. Used by `record --serve`.
package final class HLSFileServer: Sendable {
    /// The directory served.
    public let directory: String
    /// The TCP port it listens on (the one given, or the one the system picked for 0).
    public let port: Int
    private let server: HTTPServer

    /// Listens on 127.0.0.1:`port` (0 picks a free port) and serves `directory` until `stop()`.
    public init(directory: String, port: Int) throws {
        self.directory = directory
        let configuration = HTTPServerConfiguration(address: try HTTPListenAddress(port: port))
        // libmicrohttpd's messages go to stderr, as the media libraries' errors do.
        server = try HTTPServer(
            configuration: configuration,
            messages: { line in
                FileHandle.standardError.write(Data("http: \(line)".utf8))
            },
            handler: { request in
                guard let path = HTTPPath(request.path), path.segments.count == 1,
                    let file = Self.file(named: path.segments[0], in: directory)
                else {
                    return .text(404, "not found")
                }
                return HTTPResponse(
                    status: 200, headers: [("Content-Type", file.contentType), ("Cache-Control", "no-cache")],
                    body: .bytes(file.bytes))
            })
        self.port = server.port
    }

    /// Stops serving and waits for open connections to end.
    public func stop() {
        server.stop()
    }

    /// The bytes and type of a playlist or segment named `name` directly in `directory`; nil for
    /// anything else (hidden names, names with a slash, directories, other kinds of file).
    package static func file(named name: String, in directory: String) -> (bytes: [UInt8], contentType: String)? {
        guard !name.hasPrefix("."), !name.contains("/"), let type = contentType(name) else { return nil }
        var isDirectory: ObjCBool = false
        let path = (directory as NSString).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return ([UInt8](data), type)
    }

    private static func contentType(_ name: String) -> String? {
        switch (name as NSString).pathExtension.lowercased() {
        case "m3u8": return "application/vnd.apple.mpegurl"
        case "ts": return "video/mp2t"
        case "m4s", "mp4": return "video/mp4"
        default: return nil
        }
    }
}
#endif
#endif
