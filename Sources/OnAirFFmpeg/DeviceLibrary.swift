import CFFmpeg
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libavdevice, loaded when a capture device is first used rather than linked into every process.
///
/// libavdevice brings libavfilter and some eighty further libraries with it (text-to-speech voices,
/// SVG, GPU filters); a process that only reads files or the network never touches them, and
/// loading them costs about 19 MB of resident memory and start-up time. So the binary does not
/// link libavdevice: the first device open loads it with `dlopen` and registers its input formats
/// with libavformat.
enum DeviceLibrary {
    /// The three libavdevice entry points OnAir calls.
    struct Functions: @unchecked Sendable {
        let registerAll: @convention(c) () -> Void
        let listInputSources: @convention(c) (UnsafePointer<AVInputFormat>?, UnsafePointer<CChar>?, OpaquePointer?,
                                              UnsafeMutablePointer<UnsafeMutablePointer<AVDeviceInfoList>?>?) -> Int32
        let freeList: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVDeviceInfoList>?>?) -> Void
    }

    /// The loaded library with its devices registered, or why it could not be loaded.
    static let loaded: Result<Functions, CaptureError> = load()

    /// The library's file name for the FFmpeg the package was built against (e.g. libavdevice.so.59).
    static var fileName: String { String(cString: onair_avdevice_library_name()) }

    private static func load() -> Result<Functions, CaptureError> {
        guard let handle = dlopen(fileName, RTLD_NOW | RTLD_GLOBAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
            return .failure(CaptureError.deviceLibraryUnavailable("\(fileName): \(reason)"))
        }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let registerAll = symbol("avdevice_register_all", as: (@convention(c) () -> Void).self),
              let list = symbol("avdevice_list_input_sources", as: (@convention(c) (UnsafePointer<AVInputFormat>?, UnsafePointer<CChar>?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<AVDeviceInfoList>?>?) -> Int32).self),
              let free = symbol("avdevice_free_list_devices", as: (@convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVDeviceInfoList>?>?) -> Void).self) else {
            return .failure(CaptureError.deviceLibraryUnavailable("\(fileName) lacks avdevice_register_all or avdevice_list_input_sources"))
        }
        registerAll()
        return .success(Functions(registerAll: registerAll, listInputSources: list, freeList: free))
    }
}
