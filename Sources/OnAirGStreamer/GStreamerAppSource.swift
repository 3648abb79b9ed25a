import CGStreamer

/// An `appsrc` element of a running pipeline: OnAir's encoded packets go in here.
///
/// Pushing copies the bytes into a GStreamer buffer and never blocks (the element is not set to
/// block); the owner watches `queuedBytes` to see whether downstream keeps up.
public final class GStreamerAppSource: @unchecked Sendable {
    private let element: UnsafeMutableRawPointer

    /// What one push gave.
    public enum PushResult: Sendable, Equatable {
        /// Taken.
        case accepted
        /// Not taken: the pipeline has not started yet (or has stopped); push again later.
        case notReady
        /// Not taken: the stream has ended.
        case ended
        /// Not taken: the pipeline failed.
        case failed
    }

    /// Takes over a reference to an appsrc handed out by the shim.
    init(taking element: UnsafeMutableRawPointer) {
        self.element = element
    }

    /// Sets the caps the source produces, in GStreamer's text form.
    public func setCaps(_ caps: String) throws(GStreamerError) {
        if onair_gst_app_source_set_caps(element, caps) != 0 { throw .invalidCaps(caps) }
    }

    /// Pushes one buffer; times in nanoseconds of the pipeline's running time (nil: none).
    public func push(_ bytes: UnsafeRawBufferPointer, pts: Int64?, dts: Int64?, duration: Int64?, isKeyframe: Bool) -> PushResult {
        let status = onair_gst_app_source_push(
            element, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
            bytes.count, pts ?? -1, dts ?? -1, duration ?? -1, isKeyframe ? 0 : 1)
        switch Int(status) {
        case Int(ONAIR_GST_PUSH_OK): return .accepted
        case Int(ONAIR_GST_PUSH_FLUSHING): return .notReady
        case Int(ONAIR_GST_PUSH_ENDED): return .ended
        default: return .failed
        }
    }

    /// Bytes pushed that downstream has not taken yet.
    public var queuedBytes: Int { Int(onair_gst_app_source_queued_bytes(element)) }

    /// The pipeline's running time now in nanoseconds (nil before it has a clock).
    public var runningTime: Int64? {
        let time = onair_gst_element_running_time(element)
        return time < 0 ? nil : time
    }

    /// Ends the stream.
    public func end() {
        onair_gst_app_source_end(element)
    }

    deinit {
        onair_gst_object_unref(element)
    }
}
