import Foundation
import OnAirCore
import OnAirServing

/// libFuzzer entry point for `RTSPKeyring`'s reading of Authorization values: the first byte
/// chooses whether Basic is allowed and the request's method, the second when the request comes
/// (2 s a step, so on both sides of the nonce's 300 s), the rest is Authorization values separated
/// by newlines, checked against a keyring with three keys that issued one nonce at time 0.
/// Checked: every value that parses reads back the same once written out again (Digest with
/// every parameter quoted, Basic re-encoded); and the key admitted is the one worked out here
/// from the parsed values — the first of the first eight whose Digest names our user, realm and
/// nonce (unexpired), no qop, MD5 if any algorithm, and the response of a key for the method, or
/// whose Basic (where allowed) names our user and a key's password.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard bytes.count >= 2 else { return 0 }
    let allowBasic = bytes[0] & 1 != 0
    let method = ["DESCRIBE", "PLAY", "SETUP", ""][Int(bytes[0] >> 1) % 4]
    let now = Double(bytes[1]) * 2
    let headers = bytes[2...].split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }

    var keyring = RTSPKeyring(user: "onair", allowBasic: allowBasic, keys: keys)
    var random = Counting()
    _ = keyring.challenge(now: 0, using: &random)

    for header in headers { checkRoundTrip(header) }
    let considered = headers.prefix(RTSPKeyring.maximumHeaders)
    let expected = considered.lazy.map { expectedKey($0, method: method, now: now, allowBasic: allowBasic) }.first { $0 != 0 } ?? 0
    let admitted = keyring.admit(method: method, authorizationHeaders: headers, now: now)
    precondition(admitted == expected, "admitted key \(admitted), expected \(expected)")
    return 0
}

let keys = [
    RTSPKeyring.Key(number: 1, password: "first-secret"), RTSPKeyring.Key(number: 2, password: "second-secret"),
    RTSPKeyring.Key(number: 3, password: "a:b"),
]
/// The nonce `Counting` gives the keyring's one challenge.
let nonce = "00000000000000010000000000000002"

/// 1, 2, 3, …
struct Counting: RandomNumberGenerator {
    var last: UInt64 = 0
    mutating func next() -> UInt64 {
        last += 1
        return last
    }
}

/// A value that parses reads back the same once written out again.
func checkRoundTrip(_ header: String) {
    let again: String
    switch RTSPCredential(header) {
    case .digest(let parameters)?:
        precondition(!parameters.isEmpty && parameters.count <= RTSPCredential.maximumParameters, "\(parameters.count) parameters")
        let quoted = parameters.sorted { $0.key < $1.key }.map { name, value in
            "\(name)=\"\(value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\""
        }
        again = "Digest " + quoted.joined(separator: ", ")
    case .basic(let user, let password)?:
        precondition(!user.contains(":"), "a Basic user with ':'")
        again = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    case nil:
        return
    }
    guard again.utf8.count <= RTSPCredential.maximumBytes else { return }
    precondition(RTSPCredential(again) == RTSPCredential(header), "does not read back the same: \(again)")
}

/// The key one value admits, worked out from what it parses to.
func expectedKey(_ header: String, method: String, now: Double, allowBasic: Bool) -> Int {
    switch RTSPCredential(header) {
    case .digest(let p)?:
        guard p["username"] == "onair", p["realm"] == "onair", p["nonce"] == nonce, let uri = p["uri"], let response = p["response"],
            p["qop"] == nil, p["algorithm"] == nil || p["algorithm"]?.lowercased() == "md5", !method.isEmpty, now <= 300
        else { return 0 }
        let key = keys.first {
            RTSPKeyring.digestResponse(user: "onair", realm: "onair", password: $0.password, method: method, uri: uri, nonce: nonce)
                == response
        }
        return key?.number ?? 0
    case .basic(let user, let password)?:
        guard allowBasic, user == "onair" else { return 0 }
        return keys.first { $0.password == password }?.number ?? 0
    case nil:
        return 0
    }
}
