#if os(Linux)
import Foundation
import OnAirCore
import OnAirTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Collects what a source delivers, with the session time at which each item arrived.
final class CaptureRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var _frames: [(frame: VideoFrame, arrived: MediaTime)] = []
    private var _audio: [(buffer: PCMBuffer, arrived: MediaTime)] = []
    private var _ended: [(any Error)?] = []

    var frames: [(frame: VideoFrame, arrived: MediaTime)] { lock.withLock { _frames } }
    var audio: [(buffer: PCMBuffer, arrived: MediaTime)] { lock.withLock { _audio } }
    var ended: [(any Error)?] { lock.withLock { _ended } }

    func handlers(clock: CaptureClock) -> CaptureHandlers {
        CaptureHandlers(
            video: { frame in self.lock.withLock { self._frames.append((frame, clock.now())) } },
            audio: { buffer in self.lock.withLock { self._audio.append((buffer, clock.now())) } },
            ended: { error in self.lock.withLock { self._ended.append(error) } })
    }
}

/// Channel 0 of a PCM buffer as floats in −1…1.
func firstChannel(_ buffer: PCMBuffer) -> [Float] {
    let stride = buffer.isPlanar ? 1 : buffer.channels
    let bytes = buffer.planes[0]
    return (0..<buffer.frameCount).map { index in
        let offset = index * stride * buffer.sampleFormat.bytesPerSample
        switch buffer.sampleFormat {
        case .s16:
            return Float(Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)) / 32768
        case .s32:
            let raw = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
            return Float(Int32(bitPattern: raw)) / 2_147_483_648
        case .f32:
            let raw = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
            return Float(bitPattern: raw)
        }
    }
}
#endif
