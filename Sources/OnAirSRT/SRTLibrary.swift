#if os(Linux)
import CSRT

/// libsrt's process-wide state: `srt_startup` runs once, the first time any socket is made.
package enum SRTLibrary {
    /// The one-time start-up; a `static let` is initialised exactly once, thread-safely.
    /// libsrt's own log is limited to critical messages: failures reach callers as `SRTError`s.
    private static let started: Int32 = {
        let status = srt_startup()
        srt_setloglevel(2)
        return status
    }()

    /// Starts libsrt if it has not started yet; every socket constructor calls this.
    package static func start() throws(SRTError) {
        if started < 0 { throw SRTError.last("srt_startup") }
    }

    /// libsrt's version as "major.minor.patch".
    package static var version: String {
        let value = srt_getversion()
        return "\(value >> 16).\((value >> 8) & 0xFF).\(value & 0xFF)"
    }

    /// Sets libsrt's own log threshold (syslog levels: 2 critical, 3 error, 4 warning, 6 notice, 7 debug).
    package static func setLogLevel(_ level: Int32) {
        try? start()
        srt_setloglevel(level)
    }
}
#endif
