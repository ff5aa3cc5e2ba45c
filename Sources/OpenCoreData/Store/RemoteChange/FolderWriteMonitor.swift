import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Calls a handler on `queue` when a file of `folder` named in `names` is written,
/// created, renamed into place or deleted.
///
/// Linux only: one inotify watch on the folder (not on the files), so that a `-wal` that
/// does not exist yet is seen once it appears, read by a Dispatch read source. Nothing runs
/// between events. The inotify descriptor is closed by the source's cancel handler, the
/// one place Dispatch allows it (<https://man7.org/linux/man-pages/man7/inotify.7.html>).
final class FolderWriteMonitor {
    private let source: any DispatchSourceRead
    private let reader: InotifyReader
    private let closed = DispatchSemaphore(value: 0)
    /// Whether the source was activated (by `start` or `cancel`); touched on the queue,
    /// or in the owner's `deinit`.
    private var activated = false

    /// A monitor, not yet started; nil where inotify is unavailable (not Linux) or fails
    /// (`inotify_init1` out of descriptors, `inotify_add_watch` past the watch limit): the
    /// caller then polls instead.
    init?(folder: String, names: Set<String>, queue: DispatchQueue) {
        #if os(Linux)
        let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE)
        guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        reader = InotifyReader(descriptor: descriptor, names: names)
        source.setCancelHandler { [closed] in
            close(descriptor)
            closed.signal()
        }
        #else
        return nil
        #endif
    }

    /// Starts calling `onWrite` (on the queue) after writes.
    func start(onWrite: @escaping () -> Void) {
        source.setEventHandler { [reader] in
            if reader.drain() { onWrite() }
        }
        activated = true
        source.activate()
    }

    /// Stops the monitor; its descriptor is closed once the cancel handler has run on the
    /// queue (see `waitUntilClosed(timeout:)`). A monitor never started is activated
    /// cancelled: Dispatch runs no cancel handler of an inactive source (the descriptor
    /// would stay open) and traps on releasing one.
    func cancel() {
        source.cancel()
        if !activated {
            activated = true
            source.activate()
        }
    }

    /// Waits until the descriptor is closed; call off the monitor's queue only.
    @discardableResult
    func waitUntilClosed(timeout: DispatchTimeInterval) -> Bool {
        closed.wait(timeout: .now() + timeout) == .success
    }
}

/// Reads every pending inotify event of a non-blocking descriptor.
private struct InotifyReader {
    let descriptor: Int32
    let names: Set<String>
    /// `struct inotify_event`: wd, mask, cookie, len (4 bytes each), then `len` bytes of
    /// NUL-padded name.
    private static let headerSize = 16

    /// Reads until the descriptor is empty; returns whether any event named one of
    /// `names`, or the kernel's queue overflowed (events were lost: assume a write).
    func drain() -> Bool {
        #if os(Linux)
        var relevant = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return relevant }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset + Self.headerSize <= count {
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + Self.headerSize)..<min(count, offset + Self.headerSize + length)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 || names.contains(name) { relevant = true }
                    offset += Self.headerSize + length
                }
            }
        }
        #else
        return false
        #endif
    }
}
