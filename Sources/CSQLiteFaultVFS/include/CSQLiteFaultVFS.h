#ifndef CSQLITE_FAULT_VFS_H
#define CSQLITE_FAULT_VFS_H

/// A test-only SQLite VFS that wraps the default ("unix") VFS and fails the Nth I/O call,
/// as SQLite's own `ioerr` tests do. Registered as the default VFS, it passes everything
/// through except for files whose path starts with the watched prefix: their calls of the
/// armed kinds are counted, and the Nth (once-only) or the Nth and every later one
/// (persistent) fails with an I/O error. One prefix and one arming at a time; the state
/// is guarded by a mutex, so connections on other threads are never disturbed.

/// Kinds of I/O call, combined as a bit mask.
enum {
    OCD_FAULT_OPEN = 1 << 0,      // xOpen: SQLITE_CANTOPEN
    OCD_FAULT_READ = 1 << 1,      // xRead: SQLITE_IOERR_READ
    OCD_FAULT_WRITE = 1 << 2,     // xWrite: SQLITE_IOERR_WRITE (or SQLITE_FULL)
    OCD_FAULT_TRUNCATE = 1 << 3,  // xTruncate: SQLITE_IOERR_TRUNCATE
    OCD_FAULT_SYNC = 1 << 4,      // xSync: SQLITE_IOERR_FSYNC
    OCD_FAULT_FILESIZE = 1 << 5,  // xFileSize: SQLITE_IOERR_FSTAT
    OCD_FAULT_LOCK = 1 << 6,      // xLock: SQLITE_IOERR_LOCK
    OCD_FAULT_SHMMAP = 1 << 7,    // xShmMap: SQLITE_IOERR_SHMMAP
    OCD_FAULT_DELETE = 1 << 8,    // xDelete: SQLITE_IOERR_DELETE
    OCD_FAULT_ALL = (1 << 9) - 1,
};

/// Registers the shim as SQLite's default VFS (once; later calls do nothing).
/// Returns SQLITE_OK or SQLite's error code.
int ocd_fault_vfs_register(void);

/// Counts (and may fail) calls on files whose path starts with `prefix` and that are
/// opened from now on; NULL watches nothing. Also disarms and clears the counters.
void ocd_fault_vfs_watch(const char *prefix);

/// Fails the `nth` (1-based) counted call of the kinds in `mask`, and with `persistent`
/// every later one too. With `disk_full`, a failed write reports SQLITE_FULL.
/// Resets the counters.
void ocd_fault_vfs_arm(int mask, long nth, int persistent, int disk_full);

/// Stops failing calls (they are still counted).
void ocd_fault_vfs_disarm(void);

/// Calls of the armed kinds counted since the last arm or watch.
long ocd_fault_vfs_calls(void);

/// Calls failed since the last arm or watch.
long ocd_fault_vfs_faults(void);

#endif
