import Foundation

/// The payload of one packet converted to other bitstream forms, made on first request and shared
/// by every copy of the packet (every sink), so that each conversion happens once. Thread-safe.
package final class PacketConversions: Sendable {
    private let converted = Locked<[BitstreamForm: MediaBuffer]>([:])

    /// Creates an empty cache.
    public init() {}

    /// The payload in `form`, made by `convert` on the first request (under the lock, so that two
    /// sinks asking at once convert once).
    public func payload(in form: BitstreamForm, _ convert: () throws -> MediaBuffer) rethrows -> MediaBuffer {
        try converted.withLock { converted in
            if let done = converted[form] { return done }
            let made = try convert()
            converted[form] = made
            return made
        }
    }

    /// How many forms have been made so far.
    public var count: Int { converted.withLock { $0.count } }
}
