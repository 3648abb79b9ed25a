#if os(Linux)
import CGStreamer
import Foundation
import OnAirCore

/// A GLib main context and loop running on its own thread: what GStreamer objects attached to
/// it (an RTSP server, later a WebRTC signalling bin) dispatch their events on.
package final class GStreamerMainLoop: @unchecked Sendable {
    let loop: OpaquePointer
    private let done = DispatchGroup()
    private let lock = NSLock()
    private var running = false

    /// A loop, not yet running (starts GStreamer if needed).
    package init() throws(GStreamerError) {
        try GStreamerLibrary.start()
        loop = onair_gst_loop_new()
    }

    /// Runs the loop on a new thread named `name` (the kernel keeps its first 15 bytes).
    package func start(named name: String) {
        lock.lock()
        defer { lock.unlock() }
        guard !running else { return }
        running = true
        let handle = UInt(bitPattern: loop)
        done.startThread(named: name) {
            onair_name_current_thread(name)  // for the kernel too: per-thread CPU figures
            onair_gst_loop_run(OpaquePointer(bitPattern: handle))
        }
    }

    /// Quits the loop and waits for its thread.
    package func stop() {
        lock.lock()
        let wasRunning = running
        running = false
        lock.unlock()
        guard wasRunning else { return }
        onair_gst_loop_quit(loop)
        done.wait()
    }

    deinit {
        stop()
        onair_gst_loop_free(loop)
    }
}
#endif
