import Foundation

/// Paints the moving background of a synthetic picture into yuv420p planes.
///
/// The picture is a diagonal luma gradient that scrolls, a panning noise texture over it, and six
/// blocks moving on their own paths with high-detail content: textured, fine stripes, expanding
/// rings and fresh per-frame noise. Luma stays within 16…190 so a white flash (235) stands out.
/// All inner loops write through unsafe buffer pointers; everything follows from the frame index.
struct SyntheticPainter: Sendable {
    /// Picture width in pixels.
    let width: Int
    /// Picture height in pixels.
    let height: Int

    /// A triangle wave 0…100…0 over 256 steps, for gradients without a hard wrap edge.
    private static let triangle: [UInt8] = (0..<256).map { (step: Int) -> UInt8 in
        let rising = step < 128 ? step : 255 - step
        return UInt8(rising * 100 / 127)
    }
    /// The same wave scaled for chroma: 88…168 around neutral grey.
    private static let chromaTriangle: [UInt8] = triangle.map { 88 + UInt8(Int($0) * 4 / 5) }
    /// The same wave scaled for the ring block: 30…180.
    private static let ringTriangle: [UInt8] = triangle.map { 30 + UInt8(Int($0) * 3 / 2) }

    /// Paints the background luma of frame `index`.
    func paintLuma(index: Int, into luma: UnsafeMutableBufferPointer<UInt8>, stride: Int) {
        let mask = NoiseTile.size - 1
        let scrollX = index &* 3, scrollY = index, phase = index &* 2
        Self.triangle.withUnsafeBufferPointer { triangle in
            NoiseTile.shared.values.withUnsafeBufferPointer { tile in
                for y in 0..<height {
                    let tileRow = ((y &+ scrollY) & mask) * NoiseTile.size
                    let gradient = (y >> 1) &+ phase
                    let rowStart = y * stride
                    for x in 0..<width {
                        let level = 24 &+ triangle[((x >> 1) &+ gradient) & 255] &+ tile[tileRow + ((x &+ scrollX) & mask)]
                        luma[rowStart + x] = level
                    }
                }
                Self.ringTriangle.withUnsafeBufferPointer { rings in
                    for block in 0..<6 {
                        paintBlock(block, index: index, luma: luma, stride: stride, tile: tile, rings: rings)
                    }
                }
            }
        }
    }

    /// Paints the background chroma of frame `index`: two slowly moving colour gradients plus a
    /// tint per block.
    func paintChroma(index: Int, u: UnsafeMutableBufferPointer<UInt8>, v: UnsafeMutableBufferPointer<UInt8>, stride: Int) {
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        Self.chromaTriangle.withUnsafeBufferPointer { triangle in
            for y in 0..<chromaHeight {
                let rowStart = y * stride
                for x in 0..<chromaWidth {
                    u[rowStart + x] = triangle[(x &+ y &+ index) & 255]
                    v[rowStart + x] = triangle[(x &- y &+ 512 &+ index &* 2) & 255]
                }
            }
        }
        for block in 0..<6 {
            let rect = blockRect(block, index: index)
            let tintU = UInt8(64 + block * 24), tintV = UInt8(200 - block * 24)
            for y in (rect.y / 2)..<((rect.y + rect.height) / 2) {
                for x in (rect.x / 2)..<((rect.x + rect.width) / 2) {
                    u[y * stride + x] = tintU
                    v[y * stride + x] = tintV
                }
            }
        }
    }

    /// Where block `block` is in frame `index`: a Lissajous path across the picture.
    func blockRect(_ block: Int, index: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let blockWidth = max(2, width / 7) & ~1, blockHeight = max(2, height / 5) & ~1
        let t = Double(index)
        let speedX = 0.021 + 0.007 * Double(block), speedY = 0.017 + 0.005 * Double(block)
        let fx = 0.5 + 0.5 * sin(t * speedX + Double(block) * 1.3)
        let fy = 0.5 + 0.5 * sin(t * speedY + Double(block) * 2.1)
        let x = Int(fx * Double(width - blockWidth)) & ~1
        let y = Int(fy * Double(height - blockHeight)) & ~1
        return (x, y, blockWidth, blockHeight)
    }

    /// Fills one moving block with its kind of detailed content.
    private func paintBlock(
        _ block: Int, index: Int, luma: UnsafeMutableBufferPointer<UInt8>, stride: Int,
        tile: UnsafeBufferPointer<UInt8>, rings: UnsafeBufferPointer<UInt8>
    ) {
        let rect = blockRect(block, index: index)
        let mask = NoiseTile.size - 1
        var random = SplitMix(seed: UInt64(truncatingIfNeeded: index) &* 0x1_0000 &+ UInt64(block))
        for y in 0..<rect.height {
            let rowStart = (rect.y + y) * stride + rect.x
            let tileRow = ((y &+ block &* 40) & mask) * NoiseTile.size
            switch block % 4 {
            case 0:  // Rigid texture, stretched to high contrast.
                for x in 0..<rect.width { luma[rowStart + x] = 16 &+ tile[tileRow + ((x &+ block &* 70) & mask)] &* 2 &+ 20 }
            case 1:  // Fine stripes and a checkerboard, one and two pixels wide.
                for x in 0..<rect.width {
                    let stripe = ((x >> 1) ^ (y >> 1)) & 1 == 0 ? 40 : 170
                    luma[rowStart + x] = UInt8(stripe) &+ (tile[tileRow + (x & mask)] >> 2)
                }
            case 2:  // Rings expanding from the block's centre.
                let cy = y - rect.height / 2
                for x in 0..<rect.width {
                    let cx = x - rect.width / 2
                    let radius = ((cx &* cx &+ cy &* cy) >> 3) &- index &* 4
                    luma[rowStart + x] = rings[radius & 255]
                }
            default:  // Fresh noise every frame, like sensor grain or water.
                var bits: UInt64 = 0
                for x in 0..<rect.width {
                    if x & 7 == 0 { bits = random.next() }
                    luma[rowStart + x] = 40 &+ UInt8(truncatingIfNeeded: bits >> UInt64((x & 7) * 8)) >> 1
                }
            }
        }
    }
}
