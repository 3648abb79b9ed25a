/// A reference-counted block of media bytes (pixels, samples or a compressed payload) that
/// stages pass along without copying.
///
/// Ownership: whoever holds a `MediaBuffer` (a frame, a queue, an encoder, a sink) keeps the
/// bytes alive; when the last holder lets go, the bytes go back where they came from — a
/// `BufferPool`, the native object they were wrapped from (an `AVFrame`, a `CVPixelBuffer`), or
/// the owner's release callback. Bytes are written only by the stage that made the buffer,
/// before it hands the buffer on; afterwards they are read-only and may be read from any thread.
///
/// A buffer is backed either by memory at a stable address (pooled, wrapped, allocated) or by a
/// Swift array (what `init(bytes:)` makes). Only the former can be handed to native code without
/// a copy, see `baseAddress`.
/// Unchecked Sendable: raw memory whose bytes are written only by the stage that made it, before it is handed on
package final class MediaBuffer: @unchecked Sendable {
    private enum Storage {
        case array([UInt8])
        case memory(UnsafeMutableRawPointer, owner: AnyObject?)
    }

    private var storage: Storage
    /// The number of bytes.
    public private(set) var count: Int
    /// How many zeroed bytes after the last one native code may read (vectorised readers over-read):
    /// backends hand a buffer to libav* without a copy only when this covers what libav* asks for.
    public let padding: Int

    /// Wraps `bytes` without copying them (the array's storage is shared, copy-on-write).
    public init(bytes: [UInt8]) {
        storage = .array(bytes)
        count = bytes.count
        padding = 0
    }

    /// Wraps `count` bytes at `pointer` without copying; `owner` keeps them alive and frees them
    /// in its own `deinit` when this buffer (the last holder) releases it. Used by backends to
    /// wrap native buffers (an AVFrame, a CVPixelBuffer) and by `BufferPool`. `padding`: readable
    /// zeroed bytes after the end (see `padding`).
    public init(pointer: UnsafeMutableRawPointer, count: Int, owner: AnyObject?, padding: Int = 0) {
        storage = .memory(pointer, owner: owner)
        self.count = count
        self.padding = padding
    }

    /// Wraps `count` bytes the caller owns at `pointer` without copying; `release` is called once,
    /// on whichever thread drops the last reference, when no stage needs the bytes any more.
    public convenience init(
        wrapping pointer: UnsafeMutableRawPointer, count: Int,
        release: @escaping @Sendable (UnsafeMutableRawPointer) -> Void
    ) {
        self.init(pointer: pointer, count: count, owner: ReleaseCallback(pointer: pointer, release: release))
    }

    /// `count` zeroed bytes of fresh memory (64-byte aligned), freed when the buffer is.
    public static func allocate(count: Int) -> MediaBuffer {
        let memory = AlignedMemory(byteCount: count)
        memory.pointer.initializeMemory(as: UInt8.self, repeating: 0, count: max(count, 1))
        return MediaBuffer(pointer: memory.pointer, count: count, owner: memory, padding: AlignedMemory.alignment)
    }

    /// The address of the bytes when they live at a stable address (pooled or wrapped memory),
    /// nil for array-backed buffers. Valid while this buffer is alive.
    public var baseAddress: UnsafeMutableRawPointer? {
        if case .memory(let pointer, _) = storage { return pointer }
        return nil
    }

    /// Calls `body` with the bytes (read-only).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch storage {
        case .array(let array): return try array.withUnsafeBytes(body)
        case .memory(let pointer, _): return try body(UnsafeRawBufferPointer(start: pointer, count: count))
        }
    }

    /// Calls `body` with the bytes for writing. Only the stage that made the buffer writes, before
    /// handing it on (a painter filling a pooled frame, a decoder converting into one).
    public func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        switch storage {
        case .array(var array):
            storage = .array([])
            defer { storage = .array(array) }
            return try array.withUnsafeMutableBytes(body)
        case .memory(let pointer, _):
            return try body(UnsafeMutableRawBufferPointer(start: pointer, count: count))
        }
    }

    /// Takes the array out of an array-backed buffer (leaving it empty) so that its only holder can
    /// change it in place; nil for memory-backed buffers. Put it back with `storeArray`.
    func extractArray() -> [UInt8]? {
        guard case .array(let array) = storage else { return nil }
        storage = .array([])
        return array
    }

    /// Puts an array (back) into the buffer.
    func storeArray(_ array: [UInt8]) {
        storage = .array(array)
        count = array.count
    }

    /// The bytes as an array: the wrapped array itself (no copy) when array-backed, else a copy.
    public var bytes: [UInt8] {
        switch storage {
        case .array(let array): return array
        case .memory(let pointer, _): return Array(UnsafeRawBufferPointer(start: pointer, count: count))
        }
    }
}

/// Calls a user's release callback when the last `MediaBuffer` wrapping their memory goes away.
private final class ReleaseCallback {
    let pointer: UnsafeMutableRawPointer
    let release: @Sendable (UnsafeMutableRawPointer) -> Void
    init(pointer: UnsafeMutableRawPointer, release: @escaping @Sendable (UnsafeMutableRawPointer) -> Void) {
        self.pointer = pointer
        self.release = release
    }
    deinit { release(pointer) }
}

/// Heap memory aligned for SIMD readers (64 bytes), with 64 bytes of zeroed padding past the end
/// that vectorised native code may over-read; freed in `deinit`.
final class AlignedMemory {
    static let alignment = 64
    let pointer: UnsafeMutableRawPointer
    init(byteCount: Int) {
        pointer = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1) + Self.alignment, alignment: Self.alignment)
        (pointer + max(byteCount, 1)).initializeMemory(as: UInt8.self, repeating: 0, count: Self.alignment)
    }
    deinit { pointer.deallocate() }
}
