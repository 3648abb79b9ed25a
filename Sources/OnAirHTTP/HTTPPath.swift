#if os(Linux)
/// A request path checked and split into its segments, refusing anything that could name a place
/// outside what is served: `.` and `..` segments, empty segments (`//`), backslashes, NUL and other
/// control characters, and paths or segments beyond fixed lengths.
///
/// The path is the decoded one (libmicrohttpd has already turned `%2e%2e` into `..`).
package struct HTTPPath: Sendable, Equatable {
    /// The segments between slashes; empty for `/`.
    package let segments: [String]

    /// The longest path accepted, in bytes.
    package static let maximumLength = 1024
    /// The most segments accepted.
    package static let maximumSegments = 16

    /// Checks `path`; nil when it is not an absolute path of plain segments.
    package init?(_ path: String) {
        let bytes = Array(path.utf8)
        guard bytes.count <= Self.maximumLength, bytes.first == UInt8(ascii: "/") else { return nil }
        var segments: [String] = []
        var current: [UInt8] = []
        var index = 1
        while index <= bytes.count {
            let byte: UInt8? = index < bytes.count ? bytes[index] : nil
            if byte == nil || byte == UInt8(ascii: "/") {
                if current.isEmpty {
                    // Only a lone "/" (the root) may end in an empty segment.
                    guard byte == nil, segments.isEmpty, bytes.count == 1 else { return nil }
                } else {
                    guard current != [0x2E], current != [0x2E, 0x2E], segments.count < Self.maximumSegments else { return nil }
                    segments.append(String(decoding: current, as: UTF8.self))
                    current = []
                }
            } else if let byte {
                guard byte >= 0x20, byte != 0x7F, byte != UInt8(ascii: "\\") else { return nil }
                current.append(byte)
            }
            index += 1
        }
        self.segments = segments
    }
}
#endif
