#if os(Linux)
#if canImport(OnAirHTTP)
import OnAirHTTP

/// A viewer's queue as the body of a continuous HTTP response: read without waiting, the server
/// woken by the viewer when a chunk is queued (or the stream ends or is cut).
final class ServeHTTPStream: HTTPStreamSource {
    let viewer: ServeViewer

    init(_ viewer: ServeViewer) {
        self.viewer = viewer
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> HTTPStreamRead {
        switch viewer.read(into: buffer, wait: 0) {
        case .bytes(let count): return .bytes(count)
        case .nothing: return .nothing
        case .end: return .end
        case .cut: return .abort
        }
    }

    func notify(_ wake: @escaping @Sendable () -> Void) {
        viewer.notify(wake)
    }

    func close() {
        viewer.close()
    }

    func whenAborted(_ abort: @escaping @Sendable () -> Void) {
        viewer.whenCut(abort)
    }
}
#endif
#endif
