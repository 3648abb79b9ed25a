/// How an output takes the session's packets.
package enum OutputRole: String, Sendable {
    /// A file: every packet is written, the encoder waits rather than lose one.
    case file
    /// A network destination: it never makes the encoder wait; it drops, skips to a keyframe
    /// when its backlog grows, and reconnects when the connection is lost.
    case network
}
