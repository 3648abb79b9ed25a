#if os(Linux)
import Foundation

/// The process's own figures for `/metrics` (Prometheus's standard `process_*` names), read
/// from `/proc/self` on Linux: CPU seconds, resident and virtual memory, open and maximum file
/// descriptors, start time.
package struct ServeProcessFigures: Sendable, Equatable {
    /// User plus system CPU seconds.
    package var cpuSeconds: Double = 0
    /// Resident memory in bytes.
    package var residentBytes: Double = 0
    /// Virtual memory in bytes.
    package var virtualBytes: Double = 0
    /// Open file descriptors.
    package var openFileDescriptors: Double = 0
    /// The soft limit of file descriptors.
    package var maximumFileDescriptors: Double = 0
    /// The start time, seconds since the Unix epoch.
    package var startTimeSeconds: Double = 0

    /// Reads the figures now (zeros where a file cannot be read).
    package static func current() -> ServeProcessFigures {
        var figures = ServeProcessFigures()
        var usage = rusage()
        if getrusage(RUSAGE_SELF.rawValue, &usage) == 0 {
            figures.cpuSeconds =
                Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
                + Double(usage.ru_stime.tv_usec) / 1e6
        }
        let page = Double(sysconf(Int32(_SC_PAGESIZE)))
        if let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
            let fields = statm.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if fields.count >= 2 {
                figures.virtualBytes = fields[0] * page
                figures.residentBytes = fields[1] * page
            }
        }
        figures.openFileDescriptors = Double((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0)
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 { figures.maximumFileDescriptors = Double(limit.rlim_cur) }
        figures.startTimeSeconds = startTime
        return figures
    }

    /// When the process started (boot time plus the start tick of /proc/self/stat), read once.
    private static let startTime: Double = {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")"),
            let proc = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let boot = proc.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }).flatMap({ Double($0.dropFirst(6)) })
        else { return Date().timeIntervalSince1970 }
        // Fields after the command's closing parenthesis: state is field 3, starttime field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return Date().timeIntervalSince1970 }
        return boot + ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }()
}
#endif
