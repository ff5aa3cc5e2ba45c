import Foundation

/// Writes one line to standard output at once (unbuffered), so that the parent reads
/// every acknowledgement printed before a kill.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Lines to standard error, for diagnostics.
func warn(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Bounds a child's run: a time limit, and an end when the parent is gone (the child is
/// re-parented), so that no child outlives a failed test.
struct Watchdog {
    let started = Date()
    let limit: TimeInterval
    let parent = getppid()

    var shouldStop: Bool {
        getppid() != parent || Date().timeIntervalSince(started) > limit
    }
}
