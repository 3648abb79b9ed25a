#if os(Linux)
import OnAirCore

/// Whom an RTSP server admits: one user with any of several keys as password (numbered, so a
/// token can be rotated while clients on the old one finish), by Digest (RFC 2617 without qop,
/// as gst-rtsp-server and ffmpeg do it) with nonces of its own and, where allowed, by Basic. Its
/// decisions, on header values the caller (OnAirGStreamer's server, through the shim's
/// GstRTSPAuth) reads from each request, at times the caller passes in.
///
/// A Digest request is admitted when its user and realm are ours, its nonce is one this keyring
/// issued no more than `nonceLifetime` seconds ago, and its response is the one a key gives:
///
///     response = MD5(MD5(user:realm:password):nonce:MD5(method:uri))
///
/// Every key is tried, each compared in constant time, whether one matched already or not. Nonces
/// are kept `nonceCapacity` at most: at that count the expired ones are dropped, then all if none
/// had expired. Not thread-safe: the caller serialises its calls.
package struct RTSPKeyring: Sendable {
    /// One password the user may give, and the number that names it (> 0).
    package struct Key: Sendable, Equatable {
        /// The number an admitted request is given (> 0).
        package var number: Int
        /// The password.
        package var password: String

        /// Key `number` with `password`.
        package init(number: Int, password: String) {
            self.number = number
            self.password = password
        }
    }

    /// The realm of every challenge, and the only one a request may name.
    package static let realm = "onair"
    /// Seconds a nonce is good for from its challenge.
    package static let nonceLifetime = 300.0
    /// Nonces kept at most.
    package static let nonceCapacity = 4096
    /// Authorization values read of one request at most (the rest are not looked at).
    package static let maximumHeaders = 8

    /// The user name every request must give.
    package let user: String
    /// Whether Basic is accepted besides Digest (only where the password cannot leak).
    package let allowBasic: Bool
    /// The keys in force (numbers > 0).
    package private(set) var keys: [Key]
    /// Nonces issued, each with the time of its challenge.
    private var nonces: [String: Double] = [:]

    /// A keyring for `user` with `keys` (those numbered 0 or less are left out).
    /// Whether refusals offer Digest (else Basic only, where allowed: a server whose other users
    /// log in with Basic, since a client given both picks Digest, which their stored hashes cannot check).
    package let offersDigest: Bool

    /// A keyring for `user` with `keys` (those numbered 0 or less are left out); `offersDigest`
    /// false (with `allowBasic`) challenges with Basic only.
    package init(user: String, allowBasic: Bool = false, offersDigest: Bool = true, keys: [Key] = []) {
        self.user = user
        self.allowBasic = allowBasic
        self.offersDigest = offersDigest || !allowBasic
        self.keys = keys.filter { $0.number > 0 }
    }

    /// Nonces kept now.
    package var nonceCount: Int { nonces.count }

    /// Puts `keys` in force instead of the current ones (those numbered 0 or less are left out).
    /// Nonces stay good: a client that was challenged before answers with its new key.
    package mutating func setKeys(_ keys: [Key]) {
        self.keys = keys.filter { $0.number > 0 }
    }

    /// The WWW-Authenticate values of a refusal sent `now`, with a new nonce from the system's
    /// random source.
    package mutating func challenge(now: Double) -> [String] {
        var random = SystemRandomNumberGenerator()
        return challenge(now: now, using: &random)
    }

    /// The WWW-Authenticate values of a refusal sent `now`: Digest with a new nonce (128 bits of
    /// `random`, in hexadecimal) and, when allowed, Basic.
    package mutating func challenge(now: Double, using random: inout some RandomNumberGenerator) -> [String] {
        let nonce = [random.next(), random.next()].map { (value: UInt64) -> String in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
        if nonces.count >= Self.nonceCapacity { nonces = nonces.filter { !Self.expired($0.value, now: now) } }
        if nonces.count >= Self.nonceCapacity { nonces.removeAll() }
        nonces[nonce] = now
        let digest = "Digest realm=\"\(Self.realm)\", nonce=\"\(nonce)\""
        let basic = "Basic realm=\"\(Self.realm)\""
        guard offersDigest else { return [basic] }
        return allowBasic ? [digest, basic] : [digest]
    }

    /// The number of the key a request with `method` ("DESCRIBE") and the Authorization values
    /// `authorizationHeaders` gives `now`, 0 when none: the first value that admits decides
    /// (malformed ones, and those past `maximumHeaders`, are not looked at).
    package func admit(method: String, authorizationHeaders: [String], now: Double) -> Int {
        for header in authorizationHeaders.prefix(Self.maximumHeaders) {
            let number: Int
            switch RTSPCredential(header) {
            case .digest(let parameters)?:
                number = digestKey(parameters, method: method, now: now)
            case .basic(let name, let password)?:
                number = allowBasic && name == user ? key { ConstantTime.equal($0.password, password) } : 0
            case nil:
                number = 0
            }
            if number != 0 { return number }
        }
        return 0
    }

    /// The scheme (`digest`, `basic`) of credentials in `authorizationHeaders` that are meant for
    /// this keyring and wrong — to be counted as a failed login —, or nil when there are none: a
    /// Digest answer to a nonce this keyring issued and still holds, for our user and realm, that no
    /// key gives; Basic with our user and no key's password (where Basic is allowed). A Digest
    /// answer to an expired or unknown nonce is stale, not wrong (a client keeping a session alive
    /// past the nonce's lifetime sends one), and Basic for another user is not ours to judge.
    package func refusal(method: String, authorizationHeaders: [String], now: Double) -> String? {
        guard admit(method: method, authorizationHeaders: authorizationHeaders, now: now) == 0 else { return nil }
        for header in authorizationHeaders.prefix(Self.maximumHeaders) {
            switch RTSPCredential(header) {
            case .digest(let parameters)?:
                if let nonce = parameters["nonce"], let issued = nonces[nonce], !Self.expired(issued, now: now) { return "digest" }
            case .basic(let name, _)?:
                if allowBasic && name == user { return "basic" }
            case nil:
                continue
            }
        }
        return nil
    }

    /// The response a Digest client gives (RFC 2617 without qop, lowercase hexadecimal).
    package static func digestResponse(user: String, realm: String, password: String, method: String, uri: String, nonce: String)
        -> String
    {
        MD5.hex("\(MD5.hex("\(user):\(realm):\(password)")):\(nonce):\(MD5.hex("\(method):\(uri)"))")
    }

    /// Whether a nonce issued at `issued` has expired at `now`.
    private static func expired(_ issued: Double, now: Double) -> Bool {
        !(now - issued <= nonceLifetime)
    }

    /// The key a Digest credential's response names, 0 when none or when the credential is not
    /// one for us: another user or realm, a nonce not ours or expired, an algorithm other than
    /// MD5, a qop (never offered).
    private func digestKey(_ parameters: [String: String], method: String, now: Double) -> Int {
        guard let name = parameters["username"], let realm = parameters["realm"], let nonce = parameters["nonce"],
            let uri = parameters["uri"], let response = parameters["response"], name == user, realm == Self.realm,
            !method.isEmpty, parameters["qop"] == nil, parameters["algorithm"].map({ $0.lowercased() == "md5" }) ?? true,
            let issued = nonces[nonce], !Self.expired(issued, now: now)
        else { return 0 }
        return key { key in
            let expected = Self.digestResponse(user: user, realm: realm, password: key.password, method: method, uri: uri, nonce: nonce)
            return ConstantTime.equal(expected, response)
        }
    }

    /// The number of the first key `matches`, 0 when none; every key is tried.
    private func key(where matches: (Key) -> Bool) -> Int {
        var found = 0
        for key in keys where matches(key) && found == 0 { found = key.number }
        return found
    }
}
#endif
