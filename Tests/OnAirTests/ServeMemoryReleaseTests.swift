#if os(Linux)
import Foundation
import Testing

@testable import OnAir

/// What `onair serve` does for memory that departed viewers freed: a trim after each departure
/// (once per moment), one every period, and glibc's allocator set once, unless the environment set it.
@Suite struct ServeMemoryReleaseTests {
    @Test func aViewerLeavingAsksForATrim() throws {
        let hub = ServeHub(formats: [.mpegTS])
        hub.setViewerObserver { _ in }
        let viewer = try hub.openViewer(format: .mpegTS, transport: "http", peer: "test")
        #expect(hub.memoryRelease.figures.releases == 0)
        viewer.close()
        #expect(hub.memoryRelease.figures.releases == 1)
    }

    @Test func departuresInOneMomentGetOneTrim() async throws {
        #if canImport(Glibc)
        // Three departures within a second of each other: one trim, a second after the first.
        let release = ServeMemoryRelease(delay: 1, period: nil)
        for _ in 0..<3 { release.released() }
        let deadline = Date(timeIntervalSinceNow: 20)  // generous: the machine is shared
        while release.figures.trims == 0 && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(release.figures.releases == 3)
        #expect(release.figures.trims == 1)
        #endif
    }

    @Test func aServerTrimsEveryPeriodWithoutDepartures() async throws {
        #if canImport(Glibc)
        let release = ServeMemoryRelease(delay: 1, period: 0.2)
        let deadline = Date(timeIntervalSinceNow: 20)  // generous: the machine is shared
        while release.figures.trims < 2 && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(release.figures.releases == 0)
        #expect(release.figures.trims >= 2)
        #endif
    }

    @Test(arguments: [
        ["MALLOC_ARENA_MAX": "8"], ["MALLOC_MMAP_THRESHOLD_": "1048576"],
        ["GLIBC_TUNABLES": "glibc.malloc.arena_max=4"],
    ])
    func theEnvironmentsAllocatorSettingsAreLeftAlone(_ environment: [String: String]) {
        #expect(ServeMemoryRelease.tuneAllocator(environment: environment) == false)
    }

    @Test func glibcTakesTheSettings() {
        #if canImport(Glibc)
        #expect(ServeMemoryRelease.tuneAllocator(environment: ["GLIBC_TUNABLES": "glibc.pthread.rseq=0"]))
        #endif
    }
}
#endif
