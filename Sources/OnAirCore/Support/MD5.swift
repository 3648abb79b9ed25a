import Foundation

/// MD5 (RFC 1321), for RTSP Digest authentication (RFC 2617), which is defined on it; not for
/// anything that needs a hash to resist collisions.
package enum MD5 {
    /// The 16-byte digest of `bytes`.
    package static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var message = Array(bytes)
        let bits = UInt64(message.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 0, to: 64, by: 8) { message.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        var state: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476]
        var words = [UInt32](repeating: 0, count: 16)
        for block in stride(from: 0, to: message.count, by: 64) {
            for index in 0..<16 {
                let at = block + index * 4
                words[index] =
                    UInt32(message[at]) | UInt32(message[at + 1]) << 8 | UInt32(message[at + 2]) << 16 | UInt32(message[at + 3]) << 24
            }
            compress(&state, words)
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32($0 * 8)) } }
    }

    /// The digest of `text`'s UTF-8 bytes in lowercase hexadecimal (32 characters).
    package static func hex(_ text: String) -> String {
        digest(Array(text.utf8)).map { byte in
            let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }

    /// The 64 round constants: the integer part of 2³² × |sin(i + 1)|.
    private static let constants: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296)) }

    /// Each step's left rotation: four per round, repeated over its 16 steps.
    private static let rotations: [UInt32] = [[7, 12, 17, 22], [5, 9, 14, 20], [4, 11, 16, 23], [6, 10, 15, 21]].flatMap {
        round in (0..<16).map { round[$0 % 4] }
    }

    /// Runs one 64-byte block (as 16 little-endian words) through the four rounds into `state`.
    private static func compress(_ state: inout [UInt32], _ words: [UInt32]) {
        var a = state[0], b = state[1], c = state[2], d = state[3]
        for step in 0..<64 {
            let mixed: UInt32, word: Int
            switch step / 16 {
            case 0: (mixed, word) = ((b & c) | (~b & d), step)
            case 1: (mixed, word) = ((d & b) | (~d & c), (5 * step + 1) % 16)
            case 2: (mixed, word) = (b ^ c ^ d, (3 * step + 5) % 16)
            default: (mixed, word) = (c ^ (b | ~d), (7 * step) % 16)
            }
            let sum = mixed &+ a &+ constants[step] &+ words[word]
            (a, d, c) = (d, c, b)
            b = b &+ (sum << rotations[step] | sum >> (32 - rotations[step]))
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
    }
}
