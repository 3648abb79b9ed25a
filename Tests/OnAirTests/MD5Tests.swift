import OnAirCore
import Testing

/// The MD5 Digest authentication is built on, against RFC 1321's test suite (appendix A.5) and
/// lengths around the padding's block boundary.
@Suite struct MD5Tests {
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func rfc1321TestSuite(input: String, digest: String) {
        #expect(MD5.hex(input) == digest)
    }

    /// 55 bytes leave room for the length in the last block, 56 do not; 64 fill one block exactly.
    @Test(arguments: [
        (55, "ef1772b6dff9a122358552954ad0df65"), (56, "3b0c8ac703f828b04c6c197006d17218"),
        (63, "b06521f39153d618550606be297466d5"), (64, "014842d480b571495a4a0363793f7367"),
        (65, "c743a45e0d2e6a95cb859adae0248435"), (128, "e510683b3f5ffe4093d021808bc6ff70"),
    ])
    func lengthsAroundABlock(length: Int, digest: String) {
        #expect(MD5.hex(String(repeating: "a", count: length)) == digest)
    }

    @Test func everyByteValue() {
        let bytes = (0..<768).map { UInt8(truncatingIfNeeded: $0) }
        let hex = MD5.digest(bytes).map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        #expect(hex == "e6899eaaf06fd702f3ed3f988eb19362")
    }
}
