#if canImport(OnAirFFmpeg)
import Foundation
import OnAirCore
import OnAirFFmpeg
import OnAirLive

/// One Opus encode beside the session's AAC, from the same capture: PCM buffers handed to
/// `audioTap(wrapping:)`'s encoder are queued (bounded; the oldest dropped when full) and encoded
/// on a thread of the feed's own, each packet handed to `deliver`.
final class OpusFeed: @unchecked Sendable {
    private let pcm = BoundedQueue<PCMBuffer>(capacity: 64)
    private let done = DispatchGroup()
    private let lock = NSLock()
    private var failureText: String?

    /// Starts the encoder thread; `deliver` runs on it.
    init(bitRate: Int, name: String, deliver: @escaping @Sendable (EncodedPacket) -> Void) throws {
        let encoder = OpusBox(try OpusEncoder(settings: AudioEncoderSettings(sampleRate: 48_000, channels: 2, bitRate: bitRate)))
        done.startThread(named: name) { [self] in
            while let buffer = pcm.pop() {
                do {
                    for packet in try encoder.encoder.encode(buffer) { deliver(packet) }
                } catch {
                    lock.lock()
                    failureText = "\(error)"
                    lock.unlock()
                    return
                }
            }
        }
    }

    /// The Opus encoder's error, if it stopped on one.
    var failure: String? {
        lock.lock()
        defer { lock.unlock() }
        return failureText
    }

    /// `encoder` with the feed's tap: every PCM buffer it encodes is also queued for Opus.
    func audioTap(wrapping encoder: any AudioEncoding) -> any AudioEncoding {
        OpusAudioTap(wrapping: encoder) { [pcm] buffer in _ = pcm.push(buffer, overflow: .dropOldest) }
    }

    /// Ends the thread (what is queued is encoded first).
    func stop() {
        pcm.close()
        done.wait()
    }
}

/// Carries the Opus encoder into its thread.
private final class OpusBox: @unchecked Sendable {
    let encoder: OpusEncoder
    init(_ encoder: OpusEncoder) { self.encoder = encoder }
}
#endif
