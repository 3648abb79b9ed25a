#if os(Linux)
import OnAirCore

/// Why publishing to a WHIP endpoint failed, in words a user can act on.
package enum WHIPError: OnAirError, Equatable {
    /// The server answered the offer (or the DELETE) with an HTTP error status.
    case refused(destination: String, status: Int, reason: String, detail: String)
    /// The server could not be reached (connection refused, no route, timed out).
    case unreachable(destination: String, reason: String)
    /// The server's reply was not a WHIP answer (not HTTP, no SDP, no Location, too large).
    case badAnswer(destination: String, reason: String)
    /// The WebRTC connection failed (negotiation, ICE, DTLS).
    case peerFailed(destination: String, reason: String)

    /// The failure in words, naming the endpoint.
    public var description: String {
        switch self {
        case let .refused(destination, status, reason, detail):
            let hint =
                status == 401 || status == 403
                ? " — the Bearer token (--token) was " + (status == 401 ? "missing or not accepted" : "refused") : ""
            return "\(destination): the WHIP server answered \(status) \(reason)\(hint)" + (detail.isEmpty ? "" : ": \(detail)")
        case let .unreachable(destination, reason):
            return "cannot reach \(destination): \(reason)"
        case let .badAnswer(destination, reason):
            return "\(destination): not a WHIP answer (\(reason))"
        case let .peerFailed(destination, reason):
            return "\(destination): the WebRTC connection failed (\(reason))"
        }
    }
}
#endif
