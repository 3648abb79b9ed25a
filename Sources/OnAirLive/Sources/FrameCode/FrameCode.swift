import OnAirCore

/// The machine-readable code every synthetic frame carries: its frame index and capture time.
///
/// The code is a grid of large black/white luma cells near the picture's top-left corner (see
/// `FrameCodeLayout`), framed by a quiet zone, a black start bar and a clock track that locate it
/// and give black/white reference levels, and protected by a CRC-16 so a damaged code reads as nil
/// rather than as a wrong value.
package enum FrameCode {
    /// Luma of a white cell (video range).
    static let white: UInt8 = 235
    /// Luma of a black cell (video range).
    static let black: UInt8 = 16

    /// Reads the code from a decoded frame's luma plane; nil when the frame has no luma plane,
    /// malformed planes, no readable code or a failed checksum.
    ///
    /// Works on `yuv420p`, `nv12`, `yuv422p` and `yuv444p` frames of any size and tolerates coding
    /// noise and a shift of up to one cell. It never traps, whatever the frame holds.
    public static func read(from frame: VideoFrame) -> (index: Int, captureMicroseconds: Int64)? {
        guard let expected = FrameCodeLayout(width: frame.width, height: frame.height),
            let payload = read(frame, at: expected)
        else { return nil }
        return (Int(payload.index), payload.captureMicroseconds)
    }

    /// The mask that keeps wall-clock microseconds to the 48 bits a code carries.
    public static let wallClockMask: Int64 = (1 << 48) - 1

    /// Reads the second code of a frame from a live synthetic source: the frame index and the
    /// sender's wall-clock capture time, in microseconds since 1970 modulo 2⁴⁸ (0 ..< 2⁴⁸).
    ///
    /// The first code keeps the session-relative capture time that `SyncAnalysis` uses; this one
    /// lets a receiver on a machine sharing the wall clock compute end-to-end latency. Nil when the
    /// frame carries no such code (generated offline, or too narrow: under about 36 cells wide).
    public static func readWallClock(from frame: VideoFrame) -> (index: Int, wallClockMicroseconds: Int64)? {
        guard let expected = FrameCodeLayout.wallClock(width: frame.width, height: frame.height),
            let payload = read(frame, at: expected)
        else { return nil }
        return (Int(payload.index), payload.captureMicroseconds & wallClockMask)
    }

    /// The payload of the code expected at `expected`, searched up to one cell around it.
    private static func read(_ frame: VideoFrame, at expected: FrameCodeLayout) -> FrameCodePayload? {
        guard let luma = FrameCodeReader.lumaPlane(of: frame) else { return nil }
        let reader = FrameCodeReader(width: frame.width, height: frame.height, stride: luma.bytesPerRow)
        let payload: FrameCodePayload? = luma.bytes.withUnsafeBufferPointer { pixels in
            for (dx, dy) in searchOffsets(cell: expected.cell) {
                let candidate = FrameCodeLayout(
                    cell: expected.cell, originX: expected.originX + dx,
                    originY: expected.originY + dy)
                if let payload = reader.read(candidate, pixels: pixels) { return payload }
            }
            return nil
        }
        return payload
    }

    /// Origin shifts to try, nearest first: the expected place, then up to one cell around it.
    private static func searchOffsets(cell: Int) -> [(Int, Int)] {
        let step = max(1, cell / 3)
        let shifts = stride(from: -cell, through: cell, by: step).map { $0 }
        var offsets = [(Int, Int)]()
        for dy in shifts { for dx in shifts { offsets.append((dx, dy)) } }
        return offsets.sorted { abs($0.0) + abs($0.1) < abs($1.0) + abs($1.1) }
    }

    /// Draws the code for `index` and `captureMicroseconds` into yuv420p planes laid out as
    /// `layout` describes; chroma under the code is set to neutral grey.
    static func draw(
        index: Int, captureMicroseconds: Int64, layout: FrameCodeLayout,
        luma: UnsafeMutableBufferPointer<UInt8>, lumaStride: Int,
        chroma: [UnsafeMutableBufferPointer<UInt8>], chromaStride: Int
    ) {
        let payload = FrameCodePayload(index: UInt32(truncatingIfNeeded: index), captureMicroseconds: captureMicroseconds)
        var white = [[Bool]](
            repeating: [Bool](repeating: true, count: FrameCodeLayout.columns),
            count: FrameCodeLayout.rows)
        for row in 1...FrameCodeLayout.dataRows {
            white[row][1] = false
            white[row][FrameCodeLayout.columns - 2] = FrameCodeLayout.clockIsWhite(row: row)
        }
        for (bit, isWhite) in payload.bits().enumerated() {
            let (column, row) = FrameCodeLayout.position(ofBit: bit)
            white[row][column] = isWhite
        }
        let cell = layout.cell
        for row in 0..<FrameCodeLayout.rows {
            for y in (layout.originY + row * cell)..<(layout.originY + (row + 1) * cell) {
                let rowStart = y * lumaStride
                for column in 0..<FrameCodeLayout.columns {
                    let value = white[row][column] ? Self.white : Self.black
                    let x0 = layout.originX + column * cell
                    for x in x0..<(x0 + cell) { luma[rowStart + x] = value }
                }
            }
        }
        let bounds = layout.bounds
        for y in (bounds.y / 2)..<((bounds.y + bounds.height + 1) / 2) {
            for plane in chroma {
                for x in (bounds.x / 2)..<((bounds.x + bounds.width + 1) / 2) { plane[y * chromaStride + x] = 128 }
            }
        }
    }
}
