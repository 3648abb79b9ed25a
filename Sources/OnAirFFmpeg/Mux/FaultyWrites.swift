#if os(Linux)
import CFFmpeg
import Foundation
import OnAirCore

/// Makes an open `AVIOContext`'s writes fail as its `WriteFaultState` says, under FFmpeg's own
/// protocol: the context's `write_packet` is swapped for one that fails with the fault's `errno`
/// or calls the original. Everything else — buffering, seeking, the close — stays FFmpeg's, so the
/// failure travels the path a real one does (kept in the context, returned by `avio_close`).
/// Only contexts of outputs a `WriteFaults` injection covers are touched.
enum FaultyWrites {
    /// The callback's type as the installed libavformat declares it (its buffer is `const` from
    /// libavformat 61 on: the shim picks the spelling).
    private typealias WritePacket = onair_avio_write_packet

    /// Keyed by the context's `opaque` (its protocol handle), the only thing a write callback gets.
    private static let hooked = Locked<[UnsafeMutableRawPointer: (original: WritePacket, fault: WriteFaultState)]>([:])

    /// Routes `pb`'s writes through `fault`.
    static func install(on pb: UnsafeMutablePointer<AVIOContext>, fault: WriteFaultState) {
        guard let opaque = pb.pointee.opaque, let original = pb.pointee.write_packet else { return }
        hooked.withLock { $0[opaque] = (original, fault) }
        pb.pointee.write_packet = { opaque, bytes, count in
            guard let opaque, let entry = FaultyWrites.hooked.withLock({ $0[opaque] }) else {
                return onair_averror(EIO)
            }
            if entry.fault.failsWrite() { return onair_averror(entry.fault.errorNumber) }
            return entry.original(opaque, bytes, count)
        }
    }

    /// Gives `pb` its own writes back (before it is closed).
    static func remove(from pb: UnsafeMutablePointer<AVIOContext>) {
        guard let opaque = pb.pointee.opaque,
            let entry = hooked.withLock({ $0.removeValue(forKey: opaque) })
        else { return }
        pb.pointee.write_packet = entry.original
    }
}
#endif
