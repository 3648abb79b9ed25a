// Apple-only: compiles to nothing on Linux except under the stub check (scripts/apple-stub-check.sh).
#if canImport(VideoToolbox) || ONAIR_APPLE_STUBS
#if canImport(VideoToolbox)
import CoreFoundation
import CoreMedia
import VideoToolbox
#else
import AppleAPIStubs
#endif
import OnAirCore

/// CoreFoundation values made through CoreFoundation's own functions (no Foundation bridging, so
/// that the same code type-checks against the stubs).
enum CoreFoundationValues {
    /// A CFNumber holding a 64-bit integer.
    static func number(_ value: Int) -> CFNumber {
        var raw = Int64(value)
        return CFNumberCreate(kCFAllocatorDefault, .sInt64Type, &raw)
    }

    /// A CFNumber holding a double.
    static func number(_ value: Double) -> CFNumber {
        var raw = value
        return CFNumberCreate(kCFAllocatorDefault, .float64Type, &raw)
    }

    /// A CFBoolean.
    static func boolean(_ value: Bool) -> CFBoolean { value ? kCFBooleanTrue : kCFBooleanFalse }

    /// A CFArray of CF objects.
    static func array(_ values: [CFTypeRef]) -> CFArray {
        var pointers: [UnsafeRawPointer?] = values.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) }
        return CFArrayCreate(kCFAllocatorDefault, &pointers, values.count, [kCFTypeArrayCallBacks])
    }

    /// A CFDictionary from CFString keys to CF objects.
    static func dictionary(_ pairs: [(CFString, CFTypeRef)]) -> CFDictionary {
        var keys: [UnsafeRawPointer?] = pairs.map { UnsafeRawPointer(Unmanaged.passUnretained($0.0).toOpaque()) }
        var values: [UnsafeRawPointer?] = pairs.map { UnsafeRawPointer(Unmanaged.passUnretained($0.1).toOpaque()) }
        return CFDictionaryCreate(
            kCFAllocatorDefault, &keys, &values, pairs.count, [kCFTypeDictionaryKeyCallBacks], [kCFTypeDictionaryValueCallBacks])
    }

    /// A CFString's characters as a String, through CoreFoundation (no Foundation bridging).
    static func string(_ value: CFString) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard CFStringGetCString(value, &buffer, buffer.count, CFStringBuiltInEncodings.UTF8.rawValue) else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A CMTime for a MediaTime (timescales above Int32 do not occur: MediaTime's is an Int32).
    static func time(_ time: MediaTime) -> CMTime { CMTime(value: time.value, timescale: time.timescale) }

    /// A MediaTime for a CMTime, nil when the CMTime is invalid.
    static func mediaTime(_ time: CMTime) -> MediaTime? {
        time.isValid ? MediaTime(value: time.value, timescale: time.timescale) : nil
    }
}
#endif
