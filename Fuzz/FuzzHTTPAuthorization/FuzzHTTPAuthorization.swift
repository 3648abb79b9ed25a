import Foundation
import OnAirServing

/// libFuzzer entry point: parses an arbitrary `Authorization` header value with `HTTPAuthorization`
/// and checks what it accepts: Basic only with a user holding no `:` whose `user:password`
/// re-encodes to base64 that parses back the same; Bearer only with a non-empty token.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    switch HTTPAuthorization(text) {
    case .basic(let user, let password):
        if user.contains(":") { fatalError("a user name with ':'") }
        let again = HTTPAuthorization("Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
        if again != .basic(user: user, password: password) { fatalError("Basic does not round-trip") }
    case .bearer(let token):
        if token.isEmpty || token.utf8.count > HTTPAuthorization.maximumBytes { fatalError("bad token") }
    case nil:
        break
    }
    return 0
}
