import Foundation

/// Runs blocking work (opening devices, encoders, files, servers; joining threads) on a thread of
/// its own, so an `async` caller suspends instead of holding one of the cooperative pool's few
/// threads.
enum OffPool {
    static func run<T: Sendable>(_ name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.name = name
            thread.start()
        }
    }
}
