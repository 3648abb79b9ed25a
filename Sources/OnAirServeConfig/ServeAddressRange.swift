#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A range of IPv4 or IPv6 addresses in CIDR notation (`192.168.1.0/24`, `2001:db8::/32`; a bare
/// address is a range of one). An IPv4 range also holds the IPv4-mapped IPv6 form of its addresses.
/// The one parser of address ranges in `onair serve`: users' `addresses`, `metrics-addresses`,
/// `health-addresses`.
public struct ServeAddressRange: Sendable, Hashable, CustomStringConvertible {
    /// Why a text is not an address range.
    package struct ParseError: Error, CustomStringConvertible, Equatable {
        /// What is wrong.
        public var description: String
    }

    /// The network's address bytes (4 or 16), host bits cleared.
    let network: [UInt8]
    /// The prefix length in bits.
    let prefix: Int

    /// Parses `ADDRESS/BITS` or `ADDRESS`; throws on anything else (host bits set are refused, as a typo).
    public init(_ text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let bytes = Self.bytes(of: String(parts[0])) else {
            throw ParseError(description: "'\(text)' is not an IPv4 or IPv6 address range (ADDRESS/BITS)")
        }
        let bits = bytes.count * 8
        var prefix = bits
        if parts.count == 2 {
            guard let value = Int(parts[1]), (0...bits).contains(value), parts[1].allSatisfy(\.isNumber) else {
                throw ParseError(description: "'\(text)': the prefix length must be 0–\(bits)")
            }
            prefix = value
        }
        guard Self.masked(bytes, prefix) == bytes else {
            throw ParseError(
                description: "'\(text)' has bits set past its /\(prefix): did you mean \(Self.show(Self.masked(bytes, prefix)))/\(prefix)?")
        }
        network = bytes
        self.prefix = prefix
    }

    /// Whether `address` (numeric IPv4 or IPv6, as a peer is written) is in the range.
    public func contains(_ address: String) -> Bool {
        guard var bytes = Self.bytes(of: address) else { return false }
        // ::ffff:a.b.c.d is an IPv4 peer on an IPv6 socket.
        if bytes.count == 16, network.count == 4, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            bytes = Array(bytes[12...])
        }
        return bytes.count == network.count && Self.masked(bytes, prefix) == network
    }

    /// Whether any of `ranges` holds `address`.
    public static func any(_ ranges: [ServeAddressRange], contains address: String) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The address of a peer written `ADDRESS:PORT` or `[ADDRESS]:PORT` (as the HTTP server gives it).
    public static func host(ofPeer peer: String) -> String {
        if peer.hasPrefix("["), let close = peer.firstIndex(of: "]") { return String(peer[peer.index(after: peer.startIndex)..<close]) }
        if let colon = peer.lastIndex(of: ":"), peer.firstIndex(of: ":") == colon { return String(peer[..<colon]) }
        return peer
    }

    /// The range as `ADDRESS/BITS`.
    public var description: String { "\(Self.show(network))/\(prefix)" }

    /// Loopback: 127.0.0.0/8 and ::1 (the default of `metrics-addresses` and `health-addresses`).
    public static let loopback: [ServeAddressRange] = [
        ServeAddressRange(network: [127, 0, 0, 0], prefix: 8),
        ServeAddressRange(network: Array(repeating: 0, count: 15) + [1], prefix: 128),
    ]

    private init(network: [UInt8], prefix: Int) {
        self.network = network
        self.prefix = prefix
    }

    static func bytes(of text: String) -> [UInt8]? {
        guard text.utf8.count <= 64 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    private static func masked(_ bytes: [UInt8], _ prefix: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let kept = min(8, max(0, prefix - index * 8))
            return kept == 8 ? byte : byte & ~(UInt8(0xff) >> kept)
        }
    }

    private static func show(_ bytes: [UInt8]) -> String {
        var text = [CChar](repeating: 0, count: 64)
        var copy = bytes
        _ = inet_ntop(bytes.count == 4 ? AF_INET : AF_INET6, &copy, &text, socklen_t(text.count))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
