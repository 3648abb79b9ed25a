#if os(Linux)
#if canImport(OnAirHTTP)
import OnAirHTTP

/// A viewer's queue as the body of a continuous HTTP response.
final class ServeHTTPStream: HTTPStreamSource {
    let viewer: ServeViewer

    init(_ viewer: ServeViewer) {
        self.viewer = viewer
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> HTTPStreamRead {
        switch viewer.read(into: buffer) {
        case .bytes(let count): return .bytes(count)
        case .nothing: return .nothing
        case .end: return .end
        case .cut: return .abort
        }
    }

    func close() {
        viewer.close()
    }
}
#endif
#endif
