#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// Runs scripts/apple-stub-check.sh: the Apple adapter type-checks against the stub declarations of
/// the Apple APIs it uses (a stub check, not an SDK build: see docs/APPLE.md).
@Suite struct StubCheckTests {
    @Test(.enabled(if: toolExists("swiftc"), "swiftc is not on PATH"))
    func adapterTypeChecksAgainstTheStubs() throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let modules = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("Modules").path
        let process = Tools.process("bash", [Tools.packageRoot.appendingPathComponent("scripts/apple-stub-check.sh").path])
        var environment = ProcessInfo.processInfo.environment
        environment["ONAIR_STUB_CHECK_MODULES"] = modules
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.runUnblocked()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("STUB CHECK (not an SDK build)"))
        #expect(text.contains("STUB CHECK passed"))
    }
}
#endif
