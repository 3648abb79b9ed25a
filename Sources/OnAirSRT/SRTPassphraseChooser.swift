#if os(Linux)
import CSRT
import Foundation
import OnAirCore

/// Chooses the passphrase of each caller a listener accepts, as it connects (libsrt's listen
/// callback sets it on the new connection before its key exchange), so the passphrase can change
/// while listening: `choose` answers with the passphrase and a tag the owner reads back with
/// `tag(of:)` once the caller is accepted, or nil to refuse the caller. An empty passphrase lets the
/// caller in unencrypted (libsrt clears the one the listener had), so a listener started open can
/// ask for a passphrase later and one started with a passphrase can stop asking.
package final class SRTPassphraseChooser: Sendable {
    private let choose: @Sendable (_ streamID: String?) -> (passphrase: String, tag: Int)?
    /// Tags of callers being connected, by socket id (taken at accept; bounded: a caller whose
    /// handshake then fails never comes to accept).
    private let tags = Locked<[SRTSOCKET: Int]>([:])
    private static let capacity = 1024

    /// A chooser asking `choose`, on libsrt's thread (it must not block).
    package init(_ choose: @escaping @Sendable (_ streamID: String?) -> (passphrase: String, tag: Int)?) {
        self.choose = choose
    }

    /// libsrt's listen callback: 0 lets the caller go on (with the passphrase set), -1 refuses it.
    func connecting(_ socket: SRTSOCKET, streamID: String?) -> Int32 {
        guard let chosen = choose(streamID) else { return -1 }
        // Length 0 clears the passphrase the connection took from the listener.
        let length = Int32(chosen.passphrase.utf8.count)
        let status = chosen.passphrase.withCString { srt_setsockflag(socket, SRTO_PASSPHRASE, $0, length) }
        guard status != SRT_ERROR else { return -1 }
        tags.withLock { tags in
            if tags.count >= Self.capacity { tags.removeAll() }
            tags[socket] = chosen.tag
        }
        return 0
    }

    /// The tag chosen for `caller` (a socket the listener accepted), forgotten once read.
    package func tag(of caller: SRTSocket) -> Int? {
        tags.withLock { $0.removeValue(forKey: caller.socketID) }
    }
}
#endif
