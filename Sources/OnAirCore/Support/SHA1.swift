/// SHA-1 (FIPS 180-4), for WS-Security's UsernameToken PasswordDigest, which ONVIF clients compute
/// with it; not for anything that needs a hash to resist collisions.
package enum SHA1 {
    /// The 20-byte digest of `bytes`.
    package static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var message = Array(bytes)
        let bits = UInt64(message.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        var state: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0]
        var words = [UInt32](repeating: 0, count: 80)
        for block in stride(from: 0, to: message.count, by: 64) {
            for index in 0..<16 {
                let at = block + index * 4
                words[index] =
                    UInt32(message[at]) << 24 | UInt32(message[at + 1]) << 16 | UInt32(message[at + 2]) << 8 | UInt32(message[at + 3])
            }
            for index in 16..<80 {
                let mixed = words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16]
                words[index] = mixed << 1 | mixed >> 31
            }
            compress(&state, words)
        }
        return state.flatMap { word in stride(from: 24, through: 0, by: -8).map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
    }

    /// Runs one block's 80 expanded words through the four rounds into `state`.
    private static func compress(_ state: inout [UInt32], _ words: [UInt32]) {
        var a = state[0], b = state[1], c = state[2], d = state[3], e = state[4]
        for step in 0..<80 {
            let mixed: UInt32
            let constant: UInt32
            switch step {
            case 0..<20: (mixed, constant) = ((b & c) | (~b & d), 0x5a82_7999)
            case 20..<40: (mixed, constant) = (b ^ c ^ d, 0x6ed9_eba1)
            case 40..<60: (mixed, constant) = ((b & c) | (b & d) | (c & d), 0x8f1b_bcdc)
            default: (mixed, constant) = (b ^ c ^ d, 0xca62_c1d6)
            }
            let next = (a << 5 | a >> 27) &+ mixed &+ e &+ constant &+ words[step]
            e = d
            d = c
            c = b << 30 | b >> 2
            b = a
            a = next
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
    }
}
