#if os(Linux)
import OnAirCore

/// Why a viewer was not admitted.
package enum ServeRefusal: OnAirError, Equatable {
    /// `maxViewers` are already served.
    case full(maximum: Int)
    /// The server is stopping.
    case stopping
    /// A reload withdrew the credential that admitted the viewer while it was being let in.
    case credentialWithdrawn

    /// Why the viewer was refused, in words.
    public var description: String {
        switch self {
        case .full(let maximum): return "already serving the most viewers allowed (\(maximum))"
        case .stopping: return "the server is stopping"
        case .credentialWithdrawn: return "the credentials were withdrawn"
        }
    }
}
#endif
