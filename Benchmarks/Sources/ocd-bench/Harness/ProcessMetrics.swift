import Foundation

/// Memory figures of the current process, from /proc/self/status.
enum ProcessMetrics {
    /// Peak resident set size (`VmHWM`) in MiB, or nil where /proc is unavailable.
    static func peakResidentMiB() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kibibytes = Double(fields[1]) else { return nil }
            return kibibytes / 1024
        }
        return nil
    }
}
