import CSQLiteBench

/// Bytes of heap the process has allocated and not freed, from glibc's `mallinfo2()`:
/// `uordblks` (chunks in use in every arena, including malloc's per-chunk header) plus
/// `hblkhd` (large blocks served by `mmap`, such as big arrays). Freed memory does not
/// count, so a delta around building something is what that something keeps alive.
enum HeapInUse {
    static func bytes() -> Int {
        #if os(Linux)
        let info = mallinfo2()
        return Int(info.uordblks) + Int(info.hblkhd)
        #else
        return 0
        #endif
    }

    /// The heap bytes `body`'s result keeps alive, divided by `count`; the result is
    /// released only after the second reading.
    static func perItem<T>(_ count: Int, _ body: () throws -> T) rethrows -> Double {
        let before = bytes()
        let kept = try body()
        let after = bytes()
        withExtendedLifetime(kept) {}
        return Double(after - before) / Double(max(1, count))
    }
}
