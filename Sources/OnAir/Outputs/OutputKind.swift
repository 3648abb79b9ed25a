import Foundation
import OnAirCore
import OnAirLive
#if canImport(OnAirStreaming)
import OnAirStreaming
#endif

/// One kind of output, declared once in `OutputRegistry`: which names it answers to (a file
/// extension, a URL scheme, a prefix), which streams it carries, whether it is a file or a
/// network destination, whether it needs keyframes at a fixed interval, and how its sink is made.
package struct OutputKind: Sendable {
    /// A short name for messages and listings ("mp4", "hls", "rtmp", …).
    public let name: String
    /// What the kind is, in a few words, for help texts.
    public let summary: String
    /// File or network destination.
    package let role: OutputRole
    /// The streams it can carry.
    public let streams: Set<MediaType>
    /// How the stream leaves: its container or bitstream form (e.g. "mp4 (AVCC)", "Annex-B").
    public let form: String
    /// Whether the output is re-made after a lost connection.
    public var reconnects: Bool { role == .network }
    let matches: @Sendable (String) -> Bool
    let keyFrameSpacing: @Sendable (OutputOptions) -> Double?
    let make: @Sendable (OutputContext) throws -> any PacketSink

    /// Declares a kind; `keyFrameSpacing` gives the longest gap between keyframes the kind needs
    /// (nil: any), `make` its sink.
    package init(
        name: String, summary: String, role: OutputRole, streams: Set<MediaType>, form: String,
        matches: @escaping @Sendable (String) -> Bool,
        keyFrameSpacing: @escaping @Sendable (OutputOptions) -> Double? = { _ in nil },
        make: @escaping @Sendable (OutputContext) throws -> any PacketSink
    ) {
        self.name = name
        self.summary = summary
        self.role = role
        self.streams = streams
        self.form = form
        self.matches = matches
        self.keyFrameSpacing = keyFrameSpacing
        self.make = make
    }

    /// Whether `output` (a path or URL) is of this kind.
    public func accepts(_ output: String) -> Bool { matches(output) }

    /// The longest gap between keyframes this kind needs with `options`, or nil when any will do.
    public func requiredKeyFrameSpacing(options: OutputOptions) -> Duration? { keyFrameSpacing(options).map { .seconds($0) } }

    /// Makes the sink for `context`.
    package func makeSink(_ context: OutputContext) throws -> any PacketSink { try make(context) }

    /// A kind matched by file extension (case-insensitive).
    static func byExtension(_ extensions: Set<String>) -> @Sendable (String) -> Bool {
        { output in
            !isURL(output) && extensions.contains(URL(fileURLWithPath: output).pathExtension.lowercased())
        }
    }

    /// Whether `text` names a URL rather than a file (`StreamTarget`'s rule where OnAirStreaming is built).
    static func isURL(_ text: String) -> Bool {
        #if canImport(OnAirStreaming)
        StreamTarget.isURL(text)
        #else
        text.contains("://")
        #endif
    }

    /// A kind matched by URL scheme (case-insensitive).
    static func byScheme(_ scheme: String) -> @Sendable (String) -> Bool {
        { output in output.lowercased().hasPrefix(scheme + "://") }
    }
}
