#if os(Linux)
import Foundation
import OnAirHTTP
import Testing

/// A port another server holds: the second server throws, naming the address and the reason, and
/// the process goes on (a failed start once freed its logger twice and aborted).
@Suite struct HTTPServerListenTests {
    @Test func aPortInUseIsAnErrorNotACrash() throws {
        let first = try HTTPServer(configuration: HTTPServerConfiguration(address: try HTTPListenAddress(host: "127.0.0.1", port: 0))) {
            _ in
            .text(200, "first")
        }
        defer { first.stop() }
        for _ in 0..<3 {
            let taken = HTTPServerConfiguration(address: try HTTPListenAddress(host: "127.0.0.1", port: first.port))
            #expect {
                _ = try HTTPServer(configuration: taken) { _ in .text(200, "second") }
            } throws: { error in
                "\(error)".contains("cannot listen on 127.0.0.1:\(first.port)") && "\(error)".contains("in use")
            }
        }
    }
}
#endif
