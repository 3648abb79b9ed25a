#if os(Linux)
/// A pointer to a GStreamer object of the shim (an element, a WebRTC peer), as a value threads may
/// pass around.
///
/// Unchecked Sendable: GStreamer's thread rules make it safe — object references are counted
/// atomically, and the shim's calls made with one off the object's own thread are GStreamer's
/// thread-safe ones (push to an appsrc, read figures under the object's lock).
struct GStreamerPointer: @unchecked Sendable {
    /// The C object.
    let raw: UnsafeMutableRawPointer

    /// A handle to `raw`.
    init(_ raw: UnsafeMutableRawPointer) {
        self.raw = raw
    }

    /// A handle to `pointer`.
    init(_ pointer: OpaquePointer) {
        raw = UnsafeMutableRawPointer(pointer)
    }

    /// The object as the shim's opaque type.
    var opaque: OpaquePointer { OpaquePointer(raw) }
}
#endif
