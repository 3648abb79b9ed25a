import Foundation
import OnAirCore

/// Generates deterministic test pictures that make an encoder work as on real content, each
/// stamped with a `FrameCode` (frame index, capture time) and flashing white on every whole
/// second of capture time.
///
/// This is a generator, not a thread: a source calls `frame(index:captureTime:)` at its own pace.
/// Frames are yuv420p with tightly packed planes, in fresh arrays or in frames from a `VideoFramePool`.
package struct SyntheticVideo: Sendable {
    /// Picture width in pixels.
    public let width: Int
    /// Picture height in pixels.
    public let height: Int
    /// Nominal frames per second, used to find the previous frame's capture time when none is given.
    public let frameRate: Double

    /// Where the frame code goes.
    private let codeLayout: FrameCodeLayout
    /// Paints the moving background.
    private let painter: SyntheticPainter

    /// Allowed widths, in pixels.
    public static let widthRange = 64...8192
    /// Allowed heights, in pixels.
    public static let heightRange = 48...8192
    /// Allowed frame rates, in frames per second.
    public static let frameRateRange = 1.0...1000.0

    /// Creates a generator for `width`×`height` pictures at `frameRate` frames per second;
    /// rejects sizes and rates outside `widthRange`, `heightRange` and `frameRateRange`.
    public init(width: Int, height: Int, frameRate: Double) throws(SettingsError) {
        guard Self.widthRange.contains(width) else {
            throw SettingsError(field: "width", value: "\(width)", allowed: "64…8192")
        }
        guard Self.heightRange.contains(height) else {
            throw SettingsError(field: "height", value: "\(height)", allowed: "48…8192")
        }
        guard Self.frameRateRange.contains(frameRate) else {
            throw SettingsError(field: "frameRate", value: "\(frameRate)", allowed: "1…1000")
        }
        guard let layout = FrameCodeLayout(width: width, height: height) else {
            throw SettingsError(field: "width×height", value: "\(width)×\(height)", allowed: "room for the frame code")
        }
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.codeLayout = layout
        self.painter = SyntheticPainter(width: width, height: height)
    }

    /// The yuv420p picture for frame `index` captured at `captureTime`, with `pts` = `captureTime`.
    ///
    /// With `wallClockMicroseconds` (the capture moment in microseconds since 1970), a second code
    /// to the right of the first carries it modulo 2⁴⁸, for `FrameCode.readWallClock(from:)`;
    /// pictures too narrow for two codes carry only the first.
    ///
    /// The picture is white (apart from its code) when it is the first frame at or after a whole
    /// second k ≥ 0 of capture time: when `previousCaptureTime` < k ≤ `captureTime`. Without a
    /// `previousCaptureTime` the previous frame is assumed to lie one nominal frame duration
    /// earlier; a source with jittery capture times should pass the real one.
    public func frame(
        index: Int, captureTime: MediaTime, previousCaptureTime: MediaTime? = nil,
        wallClockMicroseconds: Int64? = nil
    ) -> VideoFrame {
        let layout = VideoFrameLayout(width: width, height: height, pixelFormat: .yuv420p)
        var luma = [UInt8](repeating: 0, count: layout.planes[0].byteCount)
        var u = [UInt8](repeating: 0, count: layout.planes[1].byteCount)
        var v = [UInt8](repeating: 0, count: layout.planes[2].byteCount)
        luma.withUnsafeMutableBufferPointer { lumaPixels in
            u.withUnsafeMutableBufferPointer { uPixels in
                v.withUnsafeMutableBufferPointer { vPixels in
                    paint(
                        index: index, captureTime: captureTime, previousCaptureTime: previousCaptureTime,
                        wallClockMicroseconds: wallClockMicroseconds, luma: lumaPixels, u: uPixels, v: vPixels)
                }
            }
        }
        return VideoFrame(
            width: width, height: height, pixelFormat: .yuv420p,
            planes: [
                .init(bytes: luma, bytesPerRow: layout.planes[0].bytesPerRow),
                .init(bytes: u, bytesPerRow: layout.planes[1].bytesPerRow),
                .init(bytes: v, bytesPerRow: layout.planes[2].bytesPerRow),
            ],
            pts: captureTime)
    }

    /// The same picture as `frame(index:captureTime:previousCaptureTime:wallClockMicroseconds:)`,
    /// painted into a frame taken from `pool` (which must make `width`×`height` yuv420p frames):
    /// no pixel memory is allocated once the pool has warmed up.
    public func frame(
        index: Int, captureTime: MediaTime, previousCaptureTime: MediaTime? = nil,
        wallClockMicroseconds: Int64? = nil, pool: VideoFramePool
    ) -> VideoFrame {
        guard pool.matches(width: width, height: height, pixelFormat: .yuv420p) else {
            return frame(
                index: index, captureTime: captureTime, previousCaptureTime: previousCaptureTime,
                wallClockMicroseconds: wallClockMicroseconds)
        }
        let frame = pool.makeFrame(pts: captureTime)
        frame.planes[0].buffer.withUnsafeMutableBytes { whole in
            let pixels = whole.bindMemory(to: UInt8.self)
            func plane(_ n: Int) -> UnsafeMutableBufferPointer<UInt8> {
                let layout = frame.planes[n]
                return UnsafeMutableBufferPointer(rebasing: pixels[layout.offset..<(layout.offset + layout.byteCount)])
            }
            paint(
                index: index, captureTime: captureTime, previousCaptureTime: previousCaptureTime,
                wallClockMicroseconds: wallClockMicroseconds, luma: plane(0), u: plane(1), v: plane(2))
        }
        return frame
    }

    /// Paints every pixel of the picture for frame `index` into tightly packed planes.
    private func paint(
        index: Int, captureTime: MediaTime, previousCaptureTime: MediaTime?, wallClockMicroseconds: Int64?,
        luma lumaPixels: UnsafeMutableBufferPointer<UInt8>, u uPixels: UnsafeMutableBufferPointer<UInt8>,
        v vPixels: UnsafeMutableBufferPointer<UInt8>
    ) {
        let wallClockLayout = wallClockMicroseconds != nil ? FrameCodeLayout.wallClock(width: width, height: height) : nil
        let flash = isFlash(captureTime: captureTime, previousCaptureTime: previousCaptureTime)
        let lumaStride = width, chromaStride = (width + 1) / 2
        let micros = Self.microseconds(captureTime)
        if flash {
            lumaPixels.update(repeating: FrameCode.white)
            uPixels.update(repeating: 128)
            vPixels.update(repeating: 128)
        } else {
            painter.paintLuma(index: index, into: lumaPixels, stride: lumaStride)
            painter.paintChroma(index: index, u: uPixels, v: vPixels, stride: chromaStride)
        }
        FrameCode.draw(
            index: index, captureMicroseconds: micros, layout: codeLayout,
            luma: lumaPixels, lumaStride: lumaStride,
            chroma: [uPixels, vPixels], chromaStride: chromaStride)
        if let wallClockLayout, let wallClockMicroseconds {
            FrameCode.draw(
                index: index, captureMicroseconds: wallClockMicroseconds & FrameCode.wallClockMask,
                layout: wallClockLayout, luma: lumaPixels, lumaStride: lumaStride,
                chroma: [uPixels, vPixels], chromaStride: chromaStride)
        }
    }

    /// Whether a frame captured at `captureTime` flashes: some whole second k ≥ 0 lies in
    /// (`previousCaptureTime`, `captureTime`], the previous time defaulting to one nominal frame
    /// duration earlier.
    public func isFlash(captureTime: MediaTime, previousCaptureTime: MediaTime? = nil) -> Bool {
        let second = Self.floorSeconds(captureTime)
        guard second >= 0 else { return false }
        if let previousCaptureTime {
            return second > Self.floorSeconds(previousCaptureTime)
        }
        // One nominal frame earlier; the nanosecond nudge keeps a previous frame that sat exactly
        // on the second (and so flashed) from being rounded below it.
        let previous = captureTime.seconds - 1 / frameRate + 1e-9
        return Double(second) > previous.rounded(.down)
    }

    /// The whole seconds in `time`, rounded towards minus infinity, computed exactly.
    static func floorSeconds(_ time: MediaTime) -> Int64 {
        let scale = Int64(time.timescale)
        let quotient = time.value / scale
        return time.value % scale < 0 ? quotient - 1 : quotient
    }

    /// `time` in whole microseconds, rounded to nearest, computed exactly.
    static func microseconds(_ time: MediaTime) -> Int64 {
        let scaled = Int128(time.value) * 1_000_000
        let scale = Int128(time.timescale)
        let rounded = scaled >= 0 ? (scaled + scale / 2) / scale : -((-scaled + scale / 2) / scale)
        return Int64(clamping: rounded)
    }
}
