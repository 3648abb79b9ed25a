#if os(Linux)
import Foundation
import Testing

@testable import OnAirServing

/// `/snapshot.jpg`'s cache: at most one encode a second whatever the request rate, and none while
/// no newer keyframe exists. The clock is injected.
@Suite struct SnapshotCacheTests {
    final class Clock: @unchecked Sendable {
        var now = 0.0
    }

    @Test func fiftyRequestsASecondCostAtMostOneEncodeASecond() {
        let clock = Clock()
        let cache = SnapshotCache(minimumInterval: 1) { clock.now }
        var made = 0
        // Three seconds at 50 requests a second; a new keyframe every 0.5 s.
        for step in 0..<150 {
            clock.now = Double(step) * 0.02
            let keyframe = Int(clock.now / 0.5) + 1
            let image = cache.image(source: keyframe) {
                made += 1
                return [UInt8(keyframe)]
            }
            #expect(!image.isEmpty)
        }
        #expect(made == 3 && cache.encodes == 3, "\(made) encodes in 3 s")
    }

    @Test func theSameKeyframeIsNeverEncodedTwice() {
        let clock = Clock()
        let cache = SnapshotCache(minimumInterval: 1) { clock.now }
        let images = (0..<10).map { step -> [UInt8] in
            clock.now = Double(step) * 5
            return cache.image(source: 7) { [UInt8(cache.encodes)] }
        }
        #expect(cache.encodes == 1 && Set(images) == [[0]])
        clock.now = 100
        #expect(cache.image(source: 8) { [8] } == [8])
    }
}
#endif
