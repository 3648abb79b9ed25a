#if os(Linux)
import CGStreamer

/// The threads that feed RTSP clients' pipelines, named for the kernel so per-thread CPU figures
/// (/proc/PID/task/*/comm) tell them apart from GStreamer's own (Foundation's thread name does
/// not reach the kernel on Linux).
package enum RTSPFeedThread {
    /// Names the calling thread (the kernel keeps 15 bytes).
    package static func name(_ name: String) {
        onair_name_current_thread(name)
    }
}
#endif
