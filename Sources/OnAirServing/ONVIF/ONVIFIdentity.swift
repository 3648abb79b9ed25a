#if os(Linux)
import Foundation

/// What identifies the device to the systems that adopt it (Home Assistant keys a camera on its
/// serial number and MAC address, so re-adding it must find the same ones): a UUID made at the
/// first start and kept in the state directory, and the MAC address of the first network
/// interface that has one.
package struct ONVIFIdentity: Sendable, Equatable {
    /// The file in the state directory that holds the UUID.
    package static let fileName = "onvif-device-uuid"

    /// The device's UUID (lowercase, the serial number and the `urn:uuid:` endpoint).
    package var uuid: String
    /// The MAC address (`aa:bb:cc:dd:ee:ff`) and the name of its interface, nil when none was found.
    package var hardwareAddress: (interface: String, address: String)?

    /// The identity kept in `stateDirectory` (made there at the first start; a directory that
    /// cannot be written gives a UUID for this run only) and the MAC read from `/sys/class/net`.
    package init(stateDirectory: String, interfaces: String = "/sys/class/net") {
        let path = (stateDirectory as NSString).appendingPathComponent(Self.fileName)
        if let text = try? String(contentsOfFile: path, encoding: .utf8),
            let kept = UUID(uuidString: text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            uuid = kept.uuidString.lowercased()
        } else {
            uuid = UUID().uuidString.lowercased()
            try? FileManager.default.createDirectory(
                atPath: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try? Data((uuid + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        }
        hardwareAddress = Self.firstHardwareAddress(in: interfaces)
    }

    /// The first interface by name, loopback excepted, with a MAC address that is not all zeros.
    static func firstHardwareAddress(in directory: String) -> (interface: String, address: String)? {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        for name in names where name != "lo" {
            guard let text = try? String(contentsOfFile: "\(directory)/\(name)/address", encoding: .utf8) else { continue }
            let address = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            let bytes = address.split(separator: ":")
            guard bytes.count == 6, bytes.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }), address != "00:00:00:00:00:00"
            else { continue }
            return (name, address)
        }
        return nil
    }

    /// Compares the UUID and the address.
    package static func == (left: ONVIFIdentity, right: ONVIFIdentity) -> Bool {
        left.uuid == right.uuid && left.hardwareAddress?.interface == right.hardwareAddress?.interface
            && left.hardwareAddress?.address == right.hardwareAddress?.address
    }
}
#endif
