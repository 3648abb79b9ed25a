#if os(Linux)
import CGStreamer

/// An `appsrc` element of a running pipeline: OnAir's encoded packets go in here.
///
/// Pushing copies the bytes into a GStreamer buffer and never blocks (the element is not set to
/// block); the owner watches `queuedBytes` to see whether downstream keeps up.
package final class GStreamerAppSource: Sendable {
    private let element: GStreamerPointer

    /// What one push gave.
    package enum PushResult: Sendable, Equatable {
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
        self.element = GStreamerPointer(element)
    }

    /// Sets the caps the source produces, in GStreamer's text form.
    package func setCaps(_ caps: String) throws(GStreamerError) {
        if onair_gst_app_source_set_caps(element.raw, caps) != 0 { throw .invalidCaps(caps) }
    }

    /// Pushes one buffer; times in nanoseconds of the pipeline's running time (nil: none).
    package func push(_ bytes: UnsafeRawBufferPointer, pts: Int64?, dts: Int64?, duration: Int64?, isKeyframe: Bool) -> PushResult {
        let status = onair_gst_app_source_push(
            element.raw, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
            bytes.count, pts ?? -1, dts ?? -1, duration ?? -1, isKeyframe ? 0 : 1)
        switch Int(status) {
        case Int(ONAIR_GST_PUSH_OK): return .accepted
        case Int(ONAIR_GST_PUSH_FLUSHING): return .notReady
        case Int(ONAIR_GST_PUSH_ENDED): return .ended
        default: return .failed
        }
    }

    /// Bytes pushed that downstream has not taken yet.
    package var queuedBytes: Int { Int(onair_gst_app_source_queued_bytes(element.raw)) }

    /// The pipeline's running time now in nanoseconds (nil until the source is PLAYING).
    package var runningTime: Int64? {
        let reading = onair_gst_element_clock_reading(element.raw)
        return Self.runningTime(
            clock: reading.has_clock != 0 ? reading.now : nil, base: reading.base, playing: reading.playing != 0)
    }

    /// The running time an element's clock time `clock` and base time `base` give, or nil while
    /// they do not give one: without a clock, and until a change to PLAYING has completed. On
    /// the way to PLAYING a pipeline hands its children the clock before their base time, so
    /// for a moment the clock's time less the base time still unset (0) is the clock's own
    /// time, hours of system uptime: a packet stamped then (an RTSP client's primed parameter
    /// sets, issue 35) ran hours ahead of the ones after it.
    static func runningTime(clock: UInt64?, base: UInt64, playing: Bool) -> Int64? {
        guard let clock, playing, base > 0 else { return nil }
        return clock >= base ? Int64(clock - base) : 0
    }

    /// Ends the stream.
    package func end() {
        onair_gst_app_source_end(element.raw)
    }

    deinit {
        onair_gst_object_unref(element.raw)
    }
}
#endif
