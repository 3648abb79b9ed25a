#if os(Linux)
import Foundation
import OnAirCore

/// Who may call the ONVIF services: accounts (a user name and the password the device can
/// recompute a digest from), checked from a WS-Security UsernameToken or an HTTP Digest
/// `Authorization` (RFC 2617 without qop, as `RTSPKeyring` does it, with nonces of its own).
///
/// A UsernameToken digest is admitted when its `Created` is within `createdWindow` of the wall
/// clock and its nonce has not been seen with the same `Created` in an admitted token during that
/// window (a replay is refused, whatever the password). The pair is the replay's mark, not the
/// nonce alone: the digest covers both, so a nonce sent again with a new `Created` is a new proof
/// only the password's holder can make — and libonvif (Debian's `onvif-util`) sends one nonce per
/// session with a fresh `Created`, to the millisecond, on each request, so its requests within one
/// millisecond (it sends GetProfiles several times in a row) carry the same token, byte for byte
/// the same request at times. A token seen before is therefore admitted again only from the
/// address that first sent it and within `sameTokenWindow` (1 s) of that, at most 16 times: a
/// token captured and replayed from elsewhere, or later, is refused. A text password only over TLS. The clocks are passed in (wall
/// for `Created`, monotonic for the nonces' ages). Not thread-safe: the caller serialises its calls.
package struct ONVIFGate: Sendable {
    /// One account: a name, its password, and the number its admissions are known by (> 0).
    package struct Account: Sendable, Equatable {
        /// The user name.
        package var user: String
        /// The password (for `--token T`: T); password-equivalent, never logged.
        package var password: String
        /// The number that names what admitted a request (a token's number or a user's index).
        package var number: Int

        /// An account.
        package init(user: String, password: String, number: Int) {
            self.user = user
            self.password = password
            self.number = number
        }
    }

    /// What the gate says of one request.
    package enum Verdict: Sendable, Equatable {
        /// Admitted, by the account with this user name and number.
        case admitted(user: String, number: Int)
        /// No credentials came with it.
        case missing
        /// Credentials came and are wrong (counted as a failed login).
        case wrong
        /// A UsernameToken whose nonce and `Created` were already used (counted as a failed login).
        case replayed
        /// A UsernameToken created outside the window (the client's clock: not counted).
        case stale
        /// A text password over plain HTTP (refused: it would travel in the clear).
        case plainTextRefused
    }

    /// Seconds either side of the wall clock a UsernameToken's `Created` may be.
    package static let createdWindow = 300.0
    /// Nonces remembered at most (UsernameToken and Digest alike).
    package static let nonceCapacity = 4096
    /// The realm of HTTP Digest challenges.
    package static let realm = "onair"

    /// The accounts in force.
    package var accounts: [Account]
    /// How long after a UsernameToken's first admission it may come again from the same address
    /// (a client's requests within one `Created` millisecond), in seconds.
    package static let sameTokenWindow = 1.0

    private struct Seen {
        var time: Double
        var peer: String
        var uses: Int
    }

    /// UsernameTokens admitted, by nonce (Base64) and `Created`: when first, from where, how often.
    private var seenTokens: [String: Seen] = [:]
    /// HTTP Digest nonces issued, with the monotonic time of their challenge.
    private var issuedNonces: [String: Double] = [:]

    /// A gate over `accounts`.
    package init(accounts: [Account]) {
        self.accounts = accounts
    }

    /// Whether any credentials are asked for.
    package var isOpen: Bool { accounts.isEmpty }

    /// The verdict on a UsernameToken that came from address `peer` at `wall` (the wall clock)
    /// and `now` (monotonic seconds), over TLS or not.
    package mutating func check(_ token: WSUsernameToken, from peer: String = "", wall: Date, now: Double, secure: Bool) -> Verdict {
        guard token.isDigest || secure else { return .plainTextRefused }
        if token.isDigest {
            guard let text = token.created, let created = PlaybackQuery.parseRFC3339(text) else { return .wrong }
            guard abs(created.timeIntervalSince(wall)) <= Self.createdWindow else { return .stale }
        }
        let account = matching { ConstantTime.equal($0.user, token.username) && token.proves($0.password) }
        guard let account else { return .wrong }
        if token.isDigest {
            let key = Data(token.nonce).base64EncodedString() + " " + (token.created ?? "")
            forget(&seenTokens, now: now, lifetime: 2 * Self.createdWindow) { $0.time }
            if let seen = seenTokens[key] {
                guard seen.peer == peer, now - seen.time <= Self.sameTokenWindow, seen.uses < 16 else { return .replayed }
                seenTokens[key]?.uses += 1
            } else {
                seenTokens[key] = Seen(time: now, peer: peer, uses: 1)
            }
        }
        return .admitted(user: account.user, number: account.number)
    }

    /// The verdict on HTTP `Authorization` values for `method` at `now` (monotonic seconds).
    package func check(authorization headers: [String], method: String, now: Double) -> Verdict {
        var sawCredentials = false
        for header in headers.prefix(RTSPKeyring.maximumHeaders) {
            guard case .digest(let parameters)? = RTSPCredential(header) else {
                if !header.isEmpty { sawCredentials = true }
                continue
            }
            sawCredentials = true
            guard let name = parameters["username"], let realm = parameters["realm"], let nonce = parameters["nonce"],
                let uri = parameters["uri"], let response = parameters["response"], realm == Self.realm, parameters["qop"] == nil,
                parameters["algorithm"].map({ $0.lowercased() == "md5" }) ?? true, let issued = issuedNonces[nonce],
                now - issued <= RTSPKeyring.nonceLifetime
            else { continue }
            let account = matching { account in
                let expected = RTSPKeyring.digestResponse(
                    user: account.user, realm: realm, password: account.password, method: method, uri: uri, nonce: nonce)
                return ConstantTime.equal(account.user, name) && ConstantTime.equal(expected, response)
            }
            if let account { return .admitted(user: account.user, number: account.number) }
        }
        return sawCredentials ? .wrong : .missing
    }

    /// A `WWW-Authenticate` value with a new nonce issued at `now`.
    package mutating func challenge(now: Double, using random: inout some RandomNumberGenerator) -> String {
        let nonce = [random.next(), random.next()].map { (value: UInt64) -> String in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
        forget(&issuedNonces, now: now, lifetime: RTSPKeyring.nonceLifetime) { $0 }
        issuedNonces[nonce] = now
        return "Digest realm=\"\(Self.realm)\", nonce=\"\(nonce)\", algorithm=MD5"
    }

    /// A challenge with a nonce from the system's random source.
    package mutating func challenge(now: Double) -> String {
        var random = SystemRandomNumberGenerator()
        return challenge(now: now, using: &random)
    }

    /// The first account `matches` (every account is tried, so the time does not say which).
    private func matching(_ matches: (Account) -> Bool) -> Account? {
        var found: Account?
        for account in accounts where matches(account) && found == nil { found = account }
        return found
    }

    /// Drops the entries older than `lifetime` once the table is full, then all if none were.
    private func forget<Value>(_ table: inout [String: Value], now: Double, lifetime: Double, time: (Value) -> Double) {
        guard table.count >= Self.nonceCapacity else { return }
        table = table.filter { now - time($0.value) <= lifetime }
        if table.count >= Self.nonceCapacity { table.removeAll() }
    }
}
#endif
