#if os(Linux)
import OnAirCore

extension PlaybackError {
    /// Runs a file operation of a `-o` output, turning its failure into `writeFailed` with the
    /// system's reason (a `SinkError.writeFailed` from `FileOutput` keeps its reason as it is).
    static func writing<T>(_ path: String, _ body: () throws -> T) throws(PlaybackError) -> T {
        do {
            return try body()
        } catch let SinkError.writeFailed(_, reason) {
            throw PlaybackError.writeFailed(path: path, reason: reason)
        } catch {
            throw PlaybackError.writeFailed(path: path, reason: "\(error)")
        }
    }
}
#endif
