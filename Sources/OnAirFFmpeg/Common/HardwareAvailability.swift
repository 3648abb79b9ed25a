#if os(Linux)
import Foundation

/// Which hardware H.264 and H.265 encoders `H264Encoder` may try. Normally all of them (each is opened to
/// see whether this machine has it); tests inject a machine without them, or with only some, so
/// they mean the same on a machine that has hardware encoders. The tool reads
/// `ONAIR_HARDWARE_ENCODERS` (`none`, or a comma-separated list of the ones allowed).
package struct HardwareAvailability: Sendable {
    /// Why the encoder named may not be tried, or nil when it may.
    package let blocked: @Sendable (String) -> String?

    /// Availability decided by `blocked`.
    package init(blocked: @escaping @Sendable (String) -> String?) {
        self.blocked = blocked
    }

    /// Every encoder may be tried.
    package static let all = HardwareAvailability { _ in nil }

    /// No hardware encoder may be tried (as on a machine without one).
    package static let none = allowing([])

    /// Only the hardware encoders in `names` may be tried.
    package static func allowing(_ names: Set<String>) -> HardwareAvailability {
        HardwareAvailability { name in
            EncoderSelection.isHardwareCandidate(name) && !names.contains(name)
                ? "hardware encoder turned off (ONAIR_HARDWARE_ENCODERS)" : nil
        }
    }

    /// From `ONAIR_HARDWARE_ENCODERS`: unset means `all`, `none` means `none`, a comma-separated
    /// list allows only those.
    package static var fromEnvironment: HardwareAvailability {
        guard let value = ProcessInfo.processInfo.environment["ONAIR_HARDWARE_ENCODERS"], !value.isEmpty else { return .all }
        if value == "none" { return .none }
        return allowing(Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }))
    }
}
#endif
