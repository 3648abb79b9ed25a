#if os(Linux)
import Foundation
import OnAirServing
import Testing

/// `Authorization` header values: Basic and Bearer, case-insensitive schemes, malformed values.
@Suite struct HTTPAuthorizationTests {
    @Test func basicAndBearerParseAndAnythingElseIsRefused() {
        #expect(HTTPAuthorization("Basic YWxpY2U6cGE6c3M=") == .basic(user: "alice", password: "pa:ss"))
        #expect(HTTPAuthorization("  basic YWxpY2U6  ") == .basic(user: "alice", password: ""))
        #expect(HTTPAuthorization("Bearer tok-123") == .bearer("tok-123"))
        #expect(HTTPAuthorization("BEARER  tok ") == .bearer("tok"))
        for bad in ["", "Basic", "Basic ", "Basic !!!", "Basic YWxpY2U=", "Bearer", "Bearer ", "Digest x", "Basicx YQ==", "Bearertok"] {
            #expect(HTTPAuthorization(bad) == nil, "\(bad)")
        }
        #expect(HTTPAuthorization("Bearer " + String(repeating: "a", count: 5000)) == nil)
        #expect(HTTPAuthorization.isBasic("Basic !!!") && !HTTPAuthorization.isBasic("Bearer x"))
    }
}
#endif
