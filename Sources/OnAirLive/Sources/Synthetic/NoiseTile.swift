/// A deterministic 256×256 tile of textured noise (values 0…63) that the synthetic picture pans
/// over: blurred noise for structure plus raw noise for fine, hard-to-predict detail.
struct NoiseTile: Sendable {
    /// Tile edge length; a power of two so coordinates wrap with a mask.
    static let size = 256
    /// The tile's values, row after row.
    let values: [UInt8]

    /// The tile every generator shares.
    static let shared = NoiseTile(seed: 0x0A17_5EED)

    /// Generates a tile from `seed`.
    init(seed: UInt64) {
        let size = Self.size, mask = size - 1
        var random = SplitMix(seed: seed)
        let raw = (0..<(size * size)).map { _ in Int(random.next() >> 58) }  // 0…63
        var mixed = [UInt8](repeating: 0, count: size * size)
        for y in 0..<size {
            for x in 0..<size {
                var sum = 0
                for dy in -2...2 { for dx in -2...2 { sum += raw[((y + dy) & mask) * size + ((x + dx) & mask)] } }
                // 60 % structure (5×5 blur, stretched), 40 % grain.
                let blurred = min(63, max(0, (sum / 25 - 32) * 3 + 32))
                mixed[y * size + x] = UInt8((blurred * 6 + raw[y * size + x] * 4) / 10)
            }
        }
        values = mixed
    }
}
