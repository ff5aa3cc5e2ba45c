import Foundation

/// The machine's load averages (1, 5, 15 minutes), from /proc/loadavg.
enum LoadAverage {
    static func current() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "?" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
