#if os(Linux)
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
    typealias RegisterAll = @Sendable @convention(c) () -> Void
    typealias ListInputSources =
        @Sendable @convention(c) (
            UnsafePointer<AVInputFormat>?, UnsafePointer<CChar>?, OpaquePointer?,
            UnsafeMutablePointer<UnsafeMutablePointer<AVDeviceInfoList>?>?
        ) -> Int32
    typealias FreeList = @Sendable @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVDeviceInfoList>?>?) -> Void

    /// The libavdevice entry points OnAir calls once the devices are registered.
    struct Functions: Sendable {
        let listInputSources: ListInputSources
        let freeList: FreeList
    }

    /// The loaded library with its devices registered, or why it could not be loaded.
    static let loaded: Result<Functions, CaptureError> = load()

    private static func load() -> Result<Functions, CaptureError> {
        let fileName = String(cString: onair_avdevice_library_name())  // e.g. libavdevice.so.59
        guard let handle = dlopen(fileName, RTLD_NOW | RTLD_GLOBAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
            return .failure(CaptureError.deviceLibraryUnavailable("\(fileName): \(reason)"))
        }
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let registerAll = symbol("avdevice_register_all", as: RegisterAll.self),
            let list = symbol("avdevice_list_input_sources", as: ListInputSources.self),
            let free = symbol("avdevice_free_list_devices", as: FreeList.self)
        else {
            return .failure(CaptureError.deviceLibraryUnavailable("\(fileName) lacks avdevice_register_all or avdevice_list_input_sources"))
        }
        registerAll()
        return .success(Functions(listInputSources: list, freeList: free))
    }
}
#endif
