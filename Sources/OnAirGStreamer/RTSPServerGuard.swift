#if os(Linux)
import CGStreamer
import Foundation
import OnAirCore

/// Holds an `RTSPServer`'s connections to its `RTSPConnectionPolicy` (OnAirServing's
/// `RTSPGuardPolicy`): the shim reports connections opening,
/// requests ending and connections closing (on the server's threads), and a thread of its own
/// reads every connection's figures four times a second, judges them and cuts. The check has a
/// thread of its own because gst-rtsp-server reads a connection for as long as bytes keep coming:
/// a client sending header lines faster than they are parsed holds the server's loop.
///
/// The C side (guard.c) only reads the figures and cuts; every decision is the policy's (without
/// one, `Unguarded` keeps every connection and knows no request's size). The
/// object the C callbacks point to is kept for the life of the process, like `RTSPServerEvents`.
final class RTSPServerGuard: Sendable {
    /// How often connections are judged.
    static let interval = 0.25

    /// The checking thread's lifetime.
    private struct Control {
        var stopping = false
        var thread: DispatchGroup?
    }

    private let policy: Locked<any RTSPConnectionPolicy>
    private let control = Locked(Control())
    /// Signalled by `stop`: ends the checking thread's wait early.
    private let wake = DispatchSemaphore(value: 0)

    init(policy: any RTSPConnectionPolicy) {
        self.policy = Locked(policy)
    }

    /// No limits: every connection kept.
    struct Unguarded: RTSPConnectionPolicy {
        func admits(_ id: UInt64, _ sample: RTSPConnectionSample, now: Double) -> Bool { true }
        func requestDone(_ id: UInt64, _ sample: RTSPConnectionSample, now: Double) -> UInt64? { nil }
        func keeps(_ id: UInt64, _ sample: RTSPConnectionSample, now: Double) -> Bool { true }
        func close(_ id: UInt64) {}
    }

    /// The callbacks the shim calls, pointing to this guard (retained for good).
    func callbacks() -> onair_rtsp_guard_callbacks {
        onair_rtsp_guard_callbacks(
            context: Unmanaged.passRetained(self).toOpaque(),
            connected: { context, connection in
                guard let connection else { return }
                RTSPServerGuard.from(context).connected(connection)
            },
            request_done: { context, connection in
                guard let connection else { return -1 }
                return RTSPServerGuard.from(context).requestDone(connection)
            },
            closed: { context, connection in
                guard let connection else { return }
                RTSPServerGuard.from(context).closed(connection)
            })
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> RTSPServerGuard {
        Unmanaged<RTSPServerGuard>.fromOpaque(context!).takeUnretainedValue()
    }

    /// Seconds on the monotonic clock.
    static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    private static func sample(_ connection: UnsafeMutableRawPointer, hasSession: Bool = false) -> RTSPConnectionSample? {
        var figures = onair_rtsp_connection_figures()
        guard onair_rtsp_connection_sample(connection, &figures) == 0 else { return nil }
        return RTSPConnectionSample(consumed: figures.consumed, data: figures.data, hasSession: hasSession)
    }

    private func connected(_ connection: UnsafeMutableRawPointer) {
        policy.withLock { policy in
            let sample = Self.sample(connection) ?? RTSPConnectionSample(consumed: 0, data: 0)
            if !policy.admits(onair_rtsp_connection_id(connection), sample, now: Self.now) {
                onair_rtsp_connection_cut(connection)
            }
        }
    }

    private func requestDone(_ connection: UnsafeMutableRawPointer) -> Int64 {
        policy.withLock { policy in
            guard let sample = Self.sample(connection),
                let size = policy.requestDone(onair_rtsp_connection_id(connection), sample, now: Self.now)
            else { return -1 }
            return Int64(clamping: size)
        }
    }

    private func closed(_ connection: UnsafeMutableRawPointer) {
        policy.withLock { $0.close(onair_rtsp_connection_id(connection)) }
    }

    /// Judges one connection. Whether it has a session is read first, outside the lock
    /// (gst-rtsp-server's client lock is not taken under it).
    private func check(client: UnsafeMutableRawPointer, connection: UnsafeMutableRawPointer) {
        let hasSession = onair_rtsp_client_has_session(client) != 0
        policy.withLock { policy in
            guard let sample = Self.sample(connection, hasSession: hasSession) else { return }
            if !policy.keeps(onair_rtsp_connection_id(connection), sample, now: Self.now) {
                onair_rtsp_connection_cut(connection)
            }
        }
    }

    /// Starts judging `server`'s connections on a thread of its own.
    func start(server: OpaquePointer) {
        let group = DispatchGroup()
        control.withLock { $0.thread = group }
        let server = GStreamerPointer(server)
        group.startThread(named: "onair.rtsp-guard") { [self] in
            onair_name_current_thread("onair.rtsp-guard")
            while waitForNextCheck() {
                onair_rtsp_server_each_connection(
                    server.opaque,
                    { context, client, connection in
                        guard let client, let connection else { return }
                        RTSPServerGuard.from(context).check(client: client, connection: connection)
                    }, Unmanaged.passUnretained(self).toOpaque())
            }
        }
    }

    /// Waits for the next check: false once stopping.
    private func waitForNextCheck() -> Bool {
        guard !isStopping else { return false }
        _ = wake.wait(timeout: .now() + Self.interval)
        return !isStopping
    }

    private var isStopping: Bool { control.withLock { $0.stopping } }

    /// Stops judging and waits for the thread (before the server closes).
    func stop() {
        let group = control.withLock { control in
            control.stopping = true
            return control.thread
        }
        wake.signal()
        group?.wait()
    }
}
#endif
