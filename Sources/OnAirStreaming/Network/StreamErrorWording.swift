#if os(Linux)
import Foundation
import OnAirCore
import OnAirSRT

#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
#endif

/// Puts a network output's errors in words: "stalled" where the deadline (not the peer) ended
/// a call, a server that still holds the previous connection explained, and a failed first
/// connection classified as refused, untrusted or unreachable.
struct StreamErrorWording: Sendable {
    let target: StreamTarget
    let policy: ReconnectPolicy

    /// An error's text, saying "stalled" where the deadline (not the peer) ended the call, and
    /// explaining a server that still holds the previous connection.
    func describe(_ error: any Error) -> String {
        #if canImport(OnAirFFmpeg)
        if let error = error as? FFmpegError, error.code == CaptureInterrupt.exitCode {
            return "\(error.operation): no progress for \(policy.sendTimeout) s (stalled)"
        }
        // A send that `rw_timeout` (FFmpeg's own bound, behind the deadline) ended: stalled too.
        if let error = error as? FFmpegError, error.code == -ETIMEDOUT, error.operation.hasPrefix("send") {
            return "\(error.operation): no progress for \(2 * policy.sendTimeout) s (stalled)"
        }
        #endif
        let text = "\(error)"
        if text.contains("Already publishing") {
            return text
                + " — the server still holds the previous connection under this stream key; it lets go once it notices that connection is gone (OnAir closed it before reconnecting), and the next attempt follows"
        }
        return text
    }

    /// The error of a failed first connection, worded for the user.
    func classify(_ error: any Error) -> StreamError {
        if let error = error as? StreamError { return error }
        if let error = error as? SRTError, error.isRejected {
            return .refused(destination: target.displayName, reason: error.rejectReason ?? error.message)
        }
        let reason = "\(error)"
        if target.transport == .srt && target.hasPassphrase && !reason.contains("timed out") && !reason.contains("Immediate exit") {
            // The URL is in the message already: keep only FFmpeg's own words for the cause.
            #if canImport(OnAirFFmpeg)
            let cause = (error as? FFmpegError)?.message ?? reason
            #else
            let cause = reason
            #endif
            return .refused(destination: target.displayName, reason: cause)
        }
        if target.transport == .rtmps && target.tls.verify && reason.localizedCaseInsensitiveContains("certificate") {
            return .untrustedCertificate(destination: target.displayName, reason: "peer certificate failed verification")
        }
        return .connectFailed(destination: target.displayName, reason: describe(error))
    }
}
#endif
