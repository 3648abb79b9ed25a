#if os(Linux)
import CGStreamer

/// GStreamer's process-wide state: `gst_init` runs once, the first time a WebRTC face or a WHIP
/// output needs it, so a process that uses neither never loads GStreamer's plugins.
package enum GStreamerLibrary {
    /// Initialises GStreamer if it has not been yet (thread-safe; later calls return the first result).
    package static func start() throws(GStreamerError) {
        var message = [CChar](repeating: 0, count: 256)
        if onair_gst_initialize(&message, message.count) != 0 {
            throw .initialization(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    /// GStreamer's version as "major.minor.micro".
    package static var version: String {
        var text = [CChar](repeating: 0, count: 32)
        onair_gst_version(&text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Throws unless every element named is installed (after starting GStreamer).
    package static func require(elements names: [String]) throws(GStreamerError) {
        try start()
        for name in names where onair_gst_has_element(name) == 0 { throw .missingElement(name) }
    }
}
#endif
