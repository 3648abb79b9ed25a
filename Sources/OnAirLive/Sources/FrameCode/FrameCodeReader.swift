import OnAirCore

/// Samples a luma plane at the cells of a candidate `FrameCodeLayout` and decodes the payload.
package struct FrameCodeReader {
    /// Picture width in pixels.
    package let width: Int
    /// Picture height in pixels.
    package let height: Int
    /// Bytes from one luma row to the next.
    package let stride: Int

    /// The largest width, height and stride the readers accept; larger values are treated as
    /// malformed so that no size arithmetic (here or in `layoutProblem()`) can overflow.
    package static let maximumDimension = 1 << 20

    /// The luma plane of `frame` when it has one and its planes are well formed, else nil.
    package static func lumaPlane(of frame: VideoFrame) -> VideoFrame.Plane? {
        switch frame.pixelFormat {
        case .yuv420p, .nv12, .yuv422p, .yuv444p: break
        case .bgra, .rgba, .rgb24: return nil
        }
        let limit = maximumDimension
        guard (1...limit).contains(frame.width), (1...limit).contains(frame.height),
            frame.planes.allSatisfy({ (0...(4 * limit)).contains($0.bytesPerRow) }),
            frame.layoutProblem() == nil
        else { return nil }
        return frame.planes[0]
    }

    /// Minimum white-minus-black difference for a code to count as present.
    package static let minimumContrast = 40.0

    /// The payload at `layout`, or nil when the layout leaves the picture, the markers are not
    /// there or the checksum fails.
    package func read(_ layout: FrameCodeLayout, pixels: UnsafeBufferPointer<UInt8>) -> FrameCodePayload? {
        let bounds = layout.bounds
        guard bounds.x >= 0, bounds.y >= 0, bounds.x + bounds.width <= width, bounds.y + bounds.height <= height,
            stride >= width, pixels.count >= stride * (height - 1) + width
        else { return nil }
        let columns = FrameCodeLayout.columns, rows = FrameCodeLayout.rows
        let mean = { (column: Int, row: Int) in self.cellMean(layout, column: column, row: row, pixels: pixels) }

        // Reference levels from the start bar (black) and the quiet zone's top and bottom rows (white).
        let bar = (1...FrameCodeLayout.dataRows).map { mean(1, $0) }
        let quiet =
            (0..<columns).flatMap { [mean($0, 0), mean($0, rows - 1)] }
            + (1...FrameCodeLayout.dataRows).flatMap { [mean(0, $0), mean(columns - 1, $0)] }
        let black = bar.reduce(0, +) / Double(bar.count)
        let white = quiet.reduce(0, +) / Double(quiet.count)
        guard white - black >= Self.minimumContrast else { return nil }
        let threshold = (black + white) / 2
        guard bar.allSatisfy({ $0 < threshold }), quiet.allSatisfy({ $0 > threshold }) else { return nil }
        for row in 1...FrameCodeLayout.dataRows
        where (mean(columns - 2, row) > threshold) != FrameCodeLayout.clockIsWhite(row: row) {
            return nil
        }
        let bits = (0..<FrameCodeLayout.bitCount).map { bit -> Bool in
            let (column, row) = FrameCodeLayout.position(ofBit: bit)
            return mean(column, row) > threshold
        }
        return FrameCodePayload(bits: bits)
    }

    /// The mean luma of the central half of one cell (edges are where coding blurs most).
    private func cellMean(_ layout: FrameCodeLayout, column: Int, row: Int, pixels: UnsafeBufferPointer<UInt8>) -> Double {
        let cell = layout.cell
        let inset = cell / 4
        let x0 = layout.originX + column * cell + inset, y0 = layout.originY + row * cell + inset
        let span = cell - 2 * inset
        let step = max(1, span / 8)
        var sum = 0, count = 0
        for y in Swift.stride(from: y0, to: y0 + span, by: step) {
            let rowStart = y * stride
            for x in Swift.stride(from: x0, to: x0 + span, by: step) {
                sum += Int(pixels[rowStart + x])
                count += 1
            }
        }
        return count == 0 ? 0 : Double(sum) / Double(count)
    }
}
