#if os(Linux)
import CSRT
import OnAirCore

/// A libsrt call failed; carries libsrt's own message (`srt_getlasterror_str`) and, for a refused
/// connection, the peer's reject reason (`srt_rejectreason_str`).
package struct SRTError: OnAirError, Equatable {
    /// libsrt's error code (`SRT_ERRNO`, e.g. 1002 for a rejected connection, 6003 for a timeout).
    package let code: Int32
    /// What OnAir was doing, e.g. "srt_connect(127.0.0.1:9000)".
    package let operation: String
    /// libsrt's text for the error.
    package let message: String
    /// Why the peer refused the connection, when libsrt knows (e.g. "Wrong password").
    package let rejectReason: String?

    /// Creates an error with explicit fields (tests and callers that map their own failures).
    package init(code: Int32, operation: String, message: String, rejectReason: String? = nil) {
        self.code = code
        self.operation = operation
        self.message = message
        self.rejectReason = rejectReason
    }

    /// Captures libsrt's last error on this thread for `operation`; adds the reject reason of
    /// `socket` when the error is a rejected or timed-out connection setup.
    static func last(_ operation: String, socket: SRTSOCKET? = nil) -> SRTError {
        var systemErrno: Int32 = 0
        let code = srt_getlasterror(&systemErrno)
        var message = String(cString: srt_getlasterror_str())
        // The system's own error behind libsrt's (a bind's "Address already in use") unless its text says it already.
        if systemErrno != 0, let system = strerror(systemErrno).map({ String(cString: $0) }), !message.contains(system) {
            message += ": \(system)"
        }
        var reason: String?
        if let socket, code == Int32(SRT_ECONNREJ.rawValue) || code == Int32(SRT_ENOSERVER.rawValue) {
            let id = srt_getrejectreason(socket)
            if id != Int32(SRT_REJ_UNKNOWN.rawValue), let text = srt_rejectreason_str(id) {
                reason = String(cString: text)
            }
        }
        srt_clearlasterror()
        return SRTError(code: code, operation: operation, message: message, rejectReason: reason)
    }

    /// Whether a send, receive or wait gave up after its timeout (`SRT_ETIMEOUT`).
    package var isTimeout: Bool { code == Int32(SRT_ETIMEOUT.rawValue) }
    /// Whether a non-blocking call would have blocked (`SRT_EASYNCSND`/`SRT_EASYNCRCV`).
    package var wouldBlock: Bool {
        code == Int32(SRT_EASYNCSND.rawValue) || code == Int32(SRT_EASYNCRCV.rawValue)
    }
    /// Whether the connection is gone (lost, never made, or the socket was closed).
    package var isConnectionGone: Bool {
        code == Int32(SRT_ECONNLOST.rawValue) || code == Int32(SRT_ENOCONN.rawValue)
            || code == Int32(SRT_EINVSOCK.rawValue) || code == Int32(SRT_ESCLOSED.rawValue)
    }
    /// Whether the peer refused the connection (wrong passphrase, stream id refused, …).
    package var isRejected: Bool { code == Int32(SRT_ECONNREJ.rawValue) }

    /// "OPERATION: MESSAGE", with the peer's reject reason when it gave one.
    package var description: String {
        if let rejectReason { return "\(operation): \(message) (\(rejectReason))" }
        return "\(operation): \(message)"
    }
}
#endif
