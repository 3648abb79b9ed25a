#if os(Linux)
import Foundation

/// An IPv4 or IPv6 address range such as `192.168.1.0/24`, `::1/128` or a single address (who
/// may read `/metrics`, `/healthz` and `/readyz` without credentials).
public struct ServeConfigAddressRange: Sendable, Equatable, CustomStringConvertible {
    /// The network's bytes (4 or 16), host bits cleared.
    public let network: [UInt8]
    /// The prefix length in bits.
    public let prefixLength: Int

    /// Loopback, IPv4 and IPv6: the default of `metrics-addresses` and `health-addresses`.
    public static let loopback: [ServeConfigAddressRange] = [
        ServeConfigAddressRange(network: [127, 0, 0, 0], prefixLength: 8),
        ServeConfigAddressRange(network: Array(repeating: 0, count: 15) + [1], prefixLength: 128),
    ]

    private init(network: [UInt8], prefixLength: Int) {
        self.network = network
        self.prefixLength = prefixLength
    }

    /// Parses `ADDRESS/BITS` or a bare `ADDRESS`; nil when it is neither.
    public init?(_ text: String) {
        guard text.utf8.count <= 64 else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let bytes = Self.addressBytes(String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        var length = bits
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...bits).contains(given), parts[1].allSatisfy(\.isASCII) else { return nil }
            length = given
        }
        self.init(network: Self.masked(bytes, length), prefixLength: length)
    }

    /// Whether `address` (an IP address as text, without port) is in the range. An IPv4-mapped
    /// IPv6 address (`::ffff:a.b.c.d`) counts as its IPv4 address.
    public func contains(address: String) -> Bool {
        guard var bytes = Self.addressBytes(address) else { return false }
        if bytes.count == 16, network.count == 4, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            bytes = Array(bytes[12...])
        }
        return bytes.count == network.count && Self.masked(bytes, prefixLength) == network
    }

    /// Whether any of `ranges` holds `address`.
    public static func any(_ ranges: [ServeConfigAddressRange], contains address: String) -> Bool {
        ranges.contains { $0.contains(address: address) }
    }

    /// The host of a peer written `ADDRESS:PORT` or `[V6ADDRESS]:PORT` (as the HTTP server gives it).
    public static func host(ofPeer peer: String) -> String {
        if peer.hasPrefix("["), let end = peer.firstIndex(of: "]") {
            return String(peer[peer.index(after: peer.startIndex)..<end])
        }
        if peer.filter({ $0 == ":" }).count == 1, let colon = peer.lastIndex(of: ":") { return String(peer[..<colon]) }
        return peer
    }

    /// `ADDRESS/BITS`.
    public var description: String {
        var text = [CChar](repeating: 0, count: 64)
        let family = network.count == 4 ? AF_INET : AF_INET6
        _ = network.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/\(prefixLength)"
    }

    private static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = [UInt8](repeating: 0, count: 4)
        if !text.contains(":") {
            return inet_pton(AF_INET, text, &v4) == 1 ? v4 : nil
        }
        var v6 = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET6, text, &v6) == 1 ? v6 : nil
    }

    private static func masked(_ bytes: [UInt8], _ length: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let keep = max(0, min(8, length - index * 8))
            return keep == 8 ? byte : byte & UInt8(truncatingIfNeeded: 0xFF << (8 - keep))
        }
    }
}
#endif
