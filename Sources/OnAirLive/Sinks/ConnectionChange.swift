import Foundation
import OnAirCore

/// What happened to a network output's connection: a session reports it as
/// `SessionEvent.connection(destination:event:)`.
public enum ConnectionChange: Sendable, Equatable, CustomStringConvertible {
    /// A connection was made (`reconnect`: after one was lost).
    case connected(reconnect: Bool)
    /// The connection failed; the output tries again after `retryIn`.
    case lost(reason: String, retryIn: Duration)
    /// A connect attempt failed; the next one follows after `retryIn`.
    case attemptFailed(reason: String, retryIn: Duration)
    /// Finishing the stream (the container trailer) failed; what was sent before stays sent.
    case finishFailed(reason: String)

    /// The change in words, without the destination: "connected", "connection lost (…);
    /// reconnecting in 1.0 s", ….
    public var description: String {
        switch self {
        case .connected(let reconnect): return reconnect ? "reconnected" : "connected"
        case let .lost(reason, retryIn): return "connection lost (\(reason)); reconnecting in \(Self.seconds(retryIn)) s"
        case let .attemptFailed(reason, retryIn): return "connect failed (\(reason)); next attempt in \(Self.seconds(retryIn)) s"
        case .finishFailed(let reason): return "could not finish the stream cleanly (\(reason))"
        }
    }

    private static func seconds(_ duration: Duration) -> String { String(format: "%.1f", duration.inSeconds) }
}
