/// Comparisons of secrets (passwords, tokens, Digest responses) in a time that depends on their
/// lengths only, not on where they first differ.
package enum ConstantTime {
    /// Whether `left` and `right` hold the same bytes.
    package static func equal(_ left: some Collection<UInt8>, _ right: some Collection<UInt8>) -> Bool {
        let a = Array(left), b = Array(right)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }

    /// Whether `left` and `right` have the same UTF-8 bytes.
    package static func equal(_ left: String, _ right: String) -> Bool {
        equal(left.utf8, right.utf8)
    }
}
