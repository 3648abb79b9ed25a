#if os(Linux)
import OnAirCore

/// What an SRT caller's stream id (`SRTO_STREAMID`, at most 512 bytes, sent by the caller) asks
/// for: the resource it names, either the whole id (`sub`) or, in SRT's access-control form
/// (`#!::r=sub,m=request`, keys and values separated by `=`, pairs by `,`), the `r` key's value.
package enum SRTStreamID {
    /// The longest stream id libsrt passes on.
    package static let maximumLength = 512

    /// The resource `streamID` names: nil for no id, an empty one, one longer than
    /// `maximumLength`, or the access-control form without a non-empty `r`.
    package static func resource(_ streamID: String?) -> String? {
        guard let streamID, !streamID.isEmpty, streamID.utf8.count <= maximumLength else { return nil }
        guard streamID.hasPrefix("#!::") else { return streamID }
        for pair in streamID.dropFirst(4).split(separator: ",", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, parts[0] == "r", !parts[1].isEmpty { return String(parts[1]) }
        }
        return nil
    }
}
#endif
