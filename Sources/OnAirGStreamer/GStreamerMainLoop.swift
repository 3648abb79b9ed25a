#if os(Linux)
import CGStreamer
import Foundation
import OnAirCore

/// A GLib main context and loop running on its own thread: what GStreamer objects attached to
/// it (an RTSP server, later a WebRTC signalling bin) dispatch their events on.
package final class GStreamerMainLoop: Sendable {
    private let handle: GStreamerPointer
    private let done = DispatchGroup()
    private let running = Locked(false)

    /// The `GMainLoop` (the shim's type).
    var loop: OpaquePointer { handle.opaque }

    /// A loop, not yet running (starts GStreamer if needed).
    package init() throws(GStreamerError) {
        try GStreamerLibrary.start()
        handle = GStreamerPointer(onair_gst_loop_new())
    }

    /// Runs the loop on a new thread named `name` (the kernel keeps its first 15 bytes).
    package func start(named name: String) {
        running.withLock { running in
            guard !running else { return }
            running = true
            let handle = self.handle
            done.startThread(named: name) {
                onair_name_current_thread(name)  // for the kernel too: per-thread CPU figures
                onair_gst_loop_run(handle.opaque)
            }
        }
    }

    /// Quits the loop and waits for its thread.
    package func stop() {
        let wasRunning = running.withLock { running in
            defer { running = false }
            return running
        }
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
