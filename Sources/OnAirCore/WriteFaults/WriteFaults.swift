import Foundation

/// The test seam of the write path: makes the files under a directory fail from a chosen moment
/// on (open, header, n-th packet, trailer, close) with a chosen `errno`, as a full disk or a
/// broken device would, without racing a real disk filling up.
///
/// Every file writer consults it when it opens a file: `ContainerWriter` (and the files its muxer
/// opens itself, such as HLS segments and playlists), `PlayerRemuxer`, and OnAir's elementary-stream
/// and Y4M/WAV writers. With no injection (production) the cost is one lookup per file opened.
package enum WriteFaults {
    /// An injection in force until `remove()`; it counts the calls it made fail.
    public final class Injection: Sendable {
        /// The directory (or file) whose paths it covers.
        public let prefix: String
        /// The moment writes start failing.
        public let moment: WriteMoment
        /// The `errno` reported.
        public let errorNumber: Int32
        fileprivate let states = Locked<[WriteFaultState]>([])

        fileprivate init(prefix: String, moment: WriteMoment, errorNumber: Int32) {
            self.prefix = prefix
            self.moment = moment
            self.errorNumber = errorNumber
        }

        /// Calls made to fail so far, over every file it covered.
        public var failureCount: Int { states.withLock { $0.reduce(0) { $0 + $1.failureCount } } }

        /// How many files it covered (opened, or refused at their opening).
        public var fileCount: Int { states.withLock { $0.count } }

        /// Ends the injection: files opened from now on write normally.
        public func remove() {
            WriteFaults.injections.withLock { $0.removeAll { $0 === self } }
        }
    }

    private static let injections = Locked<[Injection]>([])

    /// Makes files whose path starts with `prefix` (a directory: every file under it) fail from
    /// `moment` on with `errno` `errorNumber` (ENOSPC by default).
    public static func inject(at moment: WriteMoment, errorNumber: Int32 = ENOSPC, under prefix: String) -> Injection {
        let injection = Injection(prefix: standardized(prefix), moment: moment, errorNumber: errorNumber)
        injections.withLock { $0.append(injection) }
        return injection
    }

    /// The fault state for a file being opened at `path`, or nil when no injection covers it.
    public static func state(for path: String) -> WriteFaultState? {
        let path = standardized(path)
        let injection: Injection? = injections.withLock { injections in
            guard !injections.isEmpty else { return nil }
            return injections.last { path == $0.prefix || path.hasPrefix($0.prefix.hasSuffix("/") ? $0.prefix : $0.prefix + "/") }
        }
        guard let injection else { return nil }
        let state = WriteFaultState(moment: injection.moment, errorNumber: injection.errorNumber)
        injection.states.withLock { $0.append(state) }
        return state
    }

    private static func standardized(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (absolute as NSString).standardizingPath
    }
}
