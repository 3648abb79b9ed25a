#if os(Linux)
import Foundation
import OnAirCore

#if canImport(OnAirFFmpeg)
import OnAirFFmpeg

/// At most one encode per `minimumInterval` however often it is asked: the image made last is
/// given again while it is younger than that, or while nothing newer exists to make it from.
/// Callers asking at once wait for the one encode. The clock is injected.
package final class SnapshotCache: Sendable {
    private let minimumInterval: Double
    private let now: @Sendable () -> Double
    /// The image made last (held while one is made: callers asking at once wait for it).
    private let cached = Locked<(image: [UInt8], source: Int, made: Double)?>(nil)
    /// A box of its own: readable while an image is being made.
    private let made = Locked(0)
    /// Images made so far.
    package var encodes: Int { made.current }

    /// A cache that makes at most one image every `minimumInterval` seconds of `now`.
    package init(minimumInterval: Double = 1, now: @escaping @Sendable () -> Double) {
        self.minimumInterval = minimumInterval
        self.now = now
    }

    /// The image of source number `source` (a newer source has a higher number), made with `make`
    /// when the cached one is older than the interval and of an older source.
    package func image(source: Int, make: () throws -> [UInt8]) rethrows -> [UInt8] {
        try cached.withLock { cached in
            if let cached, cached.source >= source || now() - cached.made < minimumInterval { return cached.image }
            let image = try make()
            made.withLock { $0 += 1 }
            cached = (image, source, now())
            return image
        }
    }
}

/// `/snapshot.jpg`: the latest video keyframe of the serve encode, decoded and encoded as a JPEG
/// on request, at most once a second (`SnapshotCache`). A sink of the session: it only keeps a
/// reference to each keyframe.
package final class ServeSnapshot: PacketSink, Sendable {
    /// "snapshot", for messages.
    package var destination: String { "snapshot" }
    /// The latest keyframe and how many came so far.
    private let latest = Locked((packet: EncodedPacket?.none, count: 0))
    /// The cache in front of the encoder.
    package let cache: SnapshotCache

    /// A snapshot source whose images are made at most once per second of `now`.
    package init(now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        cache = SnapshotCache(now: now)
    }

    /// Keeps each video keyframe (the newest replaces the one before).
    package func write(_ packet: EncodedPacket) throws {
        guard packet.mediaType == .video, packet.isKeyframe else { return }
        latest.withLock { latest in
            latest.packet = packet
            latest.count += 1
        }
    }

    /// Nothing to finish.
    package func finish() throws {}

    /// The JPEG of the latest keyframe, or nil before the first one.
    package func jpeg() throws -> [UInt8]? {
        let (packet, number) = latest.withLock { ($0.packet, $0.count) }
        guard let packet else { return nil }
        return try cache.image(source: number) { try KeyframeJPEG.jpeg(of: packet) }
    }
}
#endif
#endif
