import Foundation

extension Tools {
    /// The path of `name` in a directory of PATH (or /usr/local/bin, /usr/bin), nil when absent.
    public static func executable(onPath name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin"]
        return directories.map { ($0 as NSString).appendingPathComponent(name) }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
