import CSQLite
import CSQLiteFaultVFS
import Foundation

/// The test-only fault-injecting VFS (`Sources/CSQLiteFaultVFS`), installed as SQLite's
/// default VFS. It only touches files under the watched folder; one folder and one
/// arming at a time, so the tests that arm it are serialized.
enum FaultVFS {
    /// Kinds of I/O call to count and fail.
    struct Kinds: OptionSet, CustomStringConvertible {
        let rawValue: Int32
        static let open = Kinds(rawValue: Int32(OCD_FAULT_OPEN))
        static let read = Kinds(rawValue: Int32(OCD_FAULT_READ))
        static let write = Kinds(rawValue: Int32(OCD_FAULT_WRITE))
        static let truncate = Kinds(rawValue: Int32(OCD_FAULT_TRUNCATE))
        static let sync = Kinds(rawValue: Int32(OCD_FAULT_SYNC))
        static let fileSize = Kinds(rawValue: Int32(OCD_FAULT_FILESIZE))
        static let lock = Kinds(rawValue: Int32(OCD_FAULT_LOCK))
        static let shmMap = Kinds(rawValue: Int32(OCD_FAULT_SHMMAP))
        static let delete = Kinds(rawValue: Int32(OCD_FAULT_DELETE))
        static let all = Kinds(rawValue: Int32(OCD_FAULT_ALL))

        var description: String {
            let names: [(Kinds, String)] = [(.open, "open"), (.read, "read"), (.write, "write"), (.truncate, "truncate"), (.sync, "sync"),
                                            (.fileSize, "fileSize"), (.lock, "lock"), (.shmMap, "shmMap"), (.delete, "delete")]
            return self == .all ? "all" : names.filter { contains($0.0) }.map(\.1).joined(separator: "+")
        }
    }

    /// How faults repeat once the Nth call failed.
    enum Mode: String, CaseIterable, CustomStringConvertible {
        /// Only the Nth call fails.
        case once
        /// The Nth and every later call fail.
        case persistent
        /// Only the Nth call fails; a failed write reports a full disk (SQLITE_FULL).
        case diskFullOnce
        var description: String { rawValue }
    }

    struct InstallFailure: Error, CustomStringConvertible { let description: String }

    /// Registers the VFS as the default (once per process).
    static func install() throws {
        let code = ocd_fault_vfs_register()
        guard code == SQLITE_OK else { throw InstallFailure(description: "sqlite3_vfs_register failed with \(code)") }
    }

    /// Counts the I/O calls of files opened under `folder` from now on; disarmed.
    static func watch(_ folder: URL) { ocd_fault_vfs_watch(folder.path + "/") }

    /// Stops watching any folder.
    static func unwatch() { ocd_fault_vfs_watch(nil) }

    /// Fails the `nth` call of `kinds` as `mode` says; counters restart.
    static func arm(_ kinds: Kinds = .all, nth: Int, mode: Mode) {
        ocd_fault_vfs_arm(kinds.rawValue, nth, mode == .persistent ? 1 : 0, mode == .diskFullOnce ? 1 : 0)
    }

    /// Stops failing calls; the counters keep counting.
    static func disarm() { ocd_fault_vfs_disarm() }

    /// Runs `body` with the `nth` call failing as `mode` says (no call when `nth` is 0):
    /// its result, and how many calls failed.
    static func injecting<T>(nth: Int, mode: Mode, _ body: () throws -> T) -> (result: Result<T, any Error>, faults: Int) {
        if nth > 0 { arm(nth: nth, mode: mode) }
        let result = Result { try body() }
        disarm()
        return (result, nth > 0 ? faults : 0)
    }

    /// Calls counted since the last arm or watch.
    static var calls: Int { ocd_fault_vfs_calls() }

    /// Calls failed since the last arm or watch.
    static var faults: Int { ocd_fault_vfs_faults() }
}
