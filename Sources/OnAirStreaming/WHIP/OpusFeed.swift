#if os(Linux)
#if canImport(OnAirFFmpeg)
import Foundation
import OnAirCore
import OnAirFFmpeg
import OnAirLive

/// One Opus encode beside the session's AAC, from the same capture: PCM buffers handed to
/// `audioTap(wrapping:)`'s encoder are queued (bounded; the oldest dropped when full) and encoded
/// on a thread of the feed's own, each packet handed to `deliver`. WebRTC's audio for WHIP
/// (`WHIPSink`) and for WHEP viewers (`WebRTCFace`, one encode for all of them).
///
/// When the encoder fails its thread ends; `check()` then throws, so the output that owns the
/// feed fails with the reason (its next write) instead of going on without sound.
package final class OpusFeed: Sendable {
    private let pcm = BoundedQueue<PCMBuffer>(capacity: 64)
    private let done = DispatchGroup()
    private let failureText = Locked<String?>(nil)

    /// Starts the encoder thread; `deliver` runs on it.
    package init(bitRate: Int, name: String, deliver: @escaping @Sendable (EncodedPacket) -> Void) throws {
        let encoder = OpusBox(try OpusEncoder(settings: AudioEncoderSettings(sampleRate: 48_000, channels: 2, bitRate: bitRate)))
        done.startThread(named: name) { [self] in
            while let buffer = pcm.pop() {
                do {
                    for packet in try encoder.encoder.encode(buffer) { deliver(packet) }
                } catch {
                    failureText.withLock { $0 = "\(error)" }
                    return
                }
            }
        }
    }

    /// Throws the Opus encoder's error once it stopped on one.
    package func check() throws(OpusFeedError) {
        let failure = failureText.current
        if let failure { throw .encodeFailed(failure) }
    }

    /// `encoder` with the feed's tap: every PCM buffer it encodes is also queued for Opus.
    package func audioTap(wrapping encoder: any AudioEncoding) -> any AudioEncoding {
        OpusAudioTap(wrapping: encoder) { [pcm] buffer in _ = pcm.push(buffer, overflow: .dropOldest) }
    }

    /// Ends the thread (what is queued is encoded first).
    package func stop() {
        pcm.close()
        done.wait()
    }
}

/// Why an Opus feed stopped.
package enum OpusFeedError: Error, CustomStringConvertible {
    /// The encoder failed (libopus's words).
    case encodeFailed(String)

    package var description: String {
        switch self {
        case .encodeFailed(let reason): return "the Opus encode for WebRTC stopped: \(reason)"
        }
    }
}

/// Carries the Opus encoder into its thread.
/// Unchecked Sendable: the OpusEncoder (libopus state) is used only on the feed's thread, after this hands it over
private final class OpusBox: @unchecked Sendable {
    let encoder: OpusEncoder
    init(_ encoder: OpusEncoder) { self.encoder = encoder }
}
#endif
#endif
