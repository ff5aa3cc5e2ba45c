// A VFS shim around SQLite's default VFS that fails the Nth I/O call on watched files.
// See include/CSQLiteFaultVFS.h.

#include "CSQLiteFaultVFS.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/// An open file: our methods in front of the wrapped VFS's file, which follows in memory.
typedef struct FaultFile {
    sqlite3_file base;
    sqlite3_file *real;
    int watched;
} FaultFile;

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t register_lock = PTHREAD_MUTEX_INITIALIZER;
static char *watched_prefix = NULL;
static int counted_mask = 0;
static long fail_at = 0;
static int fail_persistent = 0;
static int fail_full = 0;
static long call_count = 0;
static long fault_count = 0;

static sqlite3_vfs *real_vfs = NULL;
static sqlite3_vfs fault_vfs;
static int registered = 0;

// MARK: - State

static int is_watched(const char *path) {
    int watched = 0;
    if (path == NULL) return 0;
    pthread_mutex_lock(&state_lock);
    if (watched_prefix != NULL) watched = strncmp(path, watched_prefix, strlen(watched_prefix)) == 0;
    pthread_mutex_unlock(&state_lock);
    return watched;
}

/// Counts one call of `kind` on a watched file; returns whether it must fail.
static int should_fail(int kind) {
    int fail = 0;
    pthread_mutex_lock(&state_lock);
    if ((counted_mask & kind) != 0) {
        call_count += 1;
        if (fail_at > 0 && (call_count == fail_at || (fail_persistent && call_count > fail_at))) {
            fault_count += 1;
            fail = 1;
        }
    }
    pthread_mutex_unlock(&state_lock);
    return fail;
}

void ocd_fault_vfs_watch(const char *prefix) {
    pthread_mutex_lock(&state_lock);
    free(watched_prefix);
    watched_prefix = NULL;
    if (prefix != NULL) {
        size_t length = strlen(prefix) + 1;
        watched_prefix = malloc(length);
        if (watched_prefix != NULL) memcpy(watched_prefix, prefix, length);
    }
    counted_mask = OCD_FAULT_ALL;
    fail_at = 0;
    call_count = 0;
    fault_count = 0;
    pthread_mutex_unlock(&state_lock);
}

void ocd_fault_vfs_arm(int mask, long nth, int persistent, int disk_full) {
    pthread_mutex_lock(&state_lock);
    counted_mask = mask;
    fail_at = nth;
    fail_persistent = persistent;
    fail_full = disk_full;
    call_count = 0;
    fault_count = 0;
    pthread_mutex_unlock(&state_lock);
}

void ocd_fault_vfs_disarm(void) {
    pthread_mutex_lock(&state_lock);
    fail_at = 0;
    pthread_mutex_unlock(&state_lock);
}

long ocd_fault_vfs_calls(void) {
    pthread_mutex_lock(&state_lock);
    long count = call_count;
    pthread_mutex_unlock(&state_lock);
    return count;
}

long ocd_fault_vfs_faults(void) {
    pthread_mutex_lock(&state_lock);
    long count = fault_count;
    pthread_mutex_unlock(&state_lock);
    return count;
}

static int write_error(void) {
    pthread_mutex_lock(&state_lock);
    int full = fail_full;
    pthread_mutex_unlock(&state_lock);
    return full ? SQLITE_FULL : SQLITE_IOERR_WRITE;
}

// MARK: - File methods

#define REAL(file) (((FaultFile *)(file))->real)
#define FAILS(file, kind) (((FaultFile *)(file))->watched && should_fail(kind))

static int fault_close(sqlite3_file *file) {
    return REAL(file)->pMethods->xClose(REAL(file));
}

static int fault_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    if (FAILS(file, OCD_FAULT_READ)) return SQLITE_IOERR_READ;
    return REAL(file)->pMethods->xRead(REAL(file), buffer, amount, offset);
}

static int fault_write(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    if (FAILS(file, OCD_FAULT_WRITE)) return write_error();
    return REAL(file)->pMethods->xWrite(REAL(file), buffer, amount, offset);
}

static int fault_truncate(sqlite3_file *file, sqlite3_int64 size) {
    if (FAILS(file, OCD_FAULT_TRUNCATE)) return SQLITE_IOERR_TRUNCATE;
    return REAL(file)->pMethods->xTruncate(REAL(file), size);
}

static int fault_sync(sqlite3_file *file, int flags) {
    if (FAILS(file, OCD_FAULT_SYNC)) return SQLITE_IOERR_FSYNC;
    return REAL(file)->pMethods->xSync(REAL(file), flags);
}

static int fault_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    if (FAILS(file, OCD_FAULT_FILESIZE)) return SQLITE_IOERR_FSTAT;
    return REAL(file)->pMethods->xFileSize(REAL(file), size);
}

static int fault_lock(sqlite3_file *file, int level) {
    if (FAILS(file, OCD_FAULT_LOCK)) return SQLITE_IOERR_LOCK;
    return REAL(file)->pMethods->xLock(REAL(file), level);
}

static int fault_unlock(sqlite3_file *file, int level) {
    return REAL(file)->pMethods->xUnlock(REAL(file), level);
}

static int fault_check_reserved_lock(sqlite3_file *file, int *result) {
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), result);
}

static int fault_file_control(sqlite3_file *file, int op, void *argument) {
    return REAL(file)->pMethods->xFileControl(REAL(file), op, argument);
}

static int fault_sector_size(sqlite3_file *file) {
    return REAL(file)->pMethods->xSectorSize(REAL(file));
}

static int fault_device_characteristics(sqlite3_file *file) {
    return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
}

static int fault_shm_map(sqlite3_file *file, int region, int size, int extend, void volatile **pointer) {
    if (REAL(file)->pMethods->iVersion < 2) return SQLITE_IOERR_SHMMAP;
    if (FAILS(file, OCD_FAULT_SHMMAP)) return SQLITE_IOERR_SHMMAP;
    return REAL(file)->pMethods->xShmMap(REAL(file), region, size, extend, pointer);
}

static int fault_shm_lock(sqlite3_file *file, int offset, int count, int flags) {
    if (REAL(file)->pMethods->iVersion < 2) return SQLITE_IOERR_SHMLOCK;
    return REAL(file)->pMethods->xShmLock(REAL(file), offset, count, flags);
}

static void fault_shm_barrier(sqlite3_file *file) {
    if (REAL(file)->pMethods->iVersion >= 2) REAL(file)->pMethods->xShmBarrier(REAL(file));
}

static int fault_shm_unmap(sqlite3_file *file, int delete_flag) {
    if (REAL(file)->pMethods->iVersion < 2) return SQLITE_OK;
    return REAL(file)->pMethods->xShmUnmap(REAL(file), delete_flag);
}

static int fault_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer) {
    if (REAL(file)->pMethods->iVersion < 3) {
        *pointer = NULL;
        return SQLITE_OK;
    }
    return REAL(file)->pMethods->xFetch(REAL(file), offset, amount, pointer);
}

static int fault_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    if (REAL(file)->pMethods->iVersion < 3) return SQLITE_OK;
    return REAL(file)->pMethods->xUnfetch(REAL(file), offset, pointer);
}

static const sqlite3_io_methods fault_io_methods = {
    3,
    fault_close,
    fault_read,
    fault_write,
    fault_truncate,
    fault_sync,
    fault_file_size,
    fault_lock,
    fault_unlock,
    fault_check_reserved_lock,
    fault_file_control,
    fault_sector_size,
    fault_device_characteristics,
    fault_shm_map,
    fault_shm_lock,
    fault_shm_barrier,
    fault_shm_unmap,
    fault_fetch,
    fault_unfetch,
};

// MARK: - VFS methods (all but xOpen and xDelete pass straight through)

static int fault_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    (void)vfs;
    FaultFile *fault = (FaultFile *)file;
    fault->base.pMethods = NULL;
    fault->real = (sqlite3_file *)&fault[1];
    fault->watched = is_watched(name);
    if (fault->watched && should_fail(OCD_FAULT_OPEN)) return SQLITE_CANTOPEN;
    int code = real_vfs->xOpen(real_vfs, name, fault->real, flags, out_flags);
    if (fault->real->pMethods != NULL) fault->base.pMethods = &fault_io_methods;
    return code;
}

static int fault_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) {
    (void)vfs;
    if (is_watched(name) && should_fail(OCD_FAULT_DELETE)) return SQLITE_IOERR_DELETE;
    return real_vfs->xDelete(real_vfs, name, sync_dir);
}

static int fault_access(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return real_vfs->xAccess(real_vfs, name, flags, result);
}

static int fault_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return real_vfs->xFullPathname(real_vfs, name, size, out);
}

static void *fault_dl_open(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return real_vfs->xDlOpen(real_vfs, name);
}

static void fault_dl_error(sqlite3_vfs *vfs, int size, char *message) {
    (void)vfs;
    real_vfs->xDlError(real_vfs, size, message);
}

static void (*fault_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return real_vfs->xDlSym(real_vfs, handle, symbol);
}

static void fault_dl_close(sqlite3_vfs *vfs, void *handle) {
    (void)vfs;
    real_vfs->xDlClose(real_vfs, handle);
}

static int fault_randomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return real_vfs->xRandomness(real_vfs, size, out);
}

static int fault_sleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return real_vfs->xSleep(real_vfs, microseconds);
}

static int fault_current_time(sqlite3_vfs *vfs, double *now) {
    (void)vfs;
    return real_vfs->xCurrentTime(real_vfs, now);
}

static int fault_get_last_error(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return real_vfs->xGetLastError != NULL ? real_vfs->xGetLastError(real_vfs, size, out) : 0;
}

static int fault_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
    (void)vfs;
    return real_vfs->xCurrentTimeInt64(real_vfs, now);
}

static int fault_set_system_call(sqlite3_vfs *vfs, const char *name, sqlite3_syscall_ptr call) {
    (void)vfs;
    return real_vfs->xSetSystemCall(real_vfs, name, call);
}

static sqlite3_syscall_ptr fault_get_system_call(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return real_vfs->xGetSystemCall(real_vfs, name);
}

static const char *fault_next_system_call(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return real_vfs->xNextSystemCall(real_vfs, name);
}

int ocd_fault_vfs_register(void) {
    int code = SQLITE_OK;
    pthread_mutex_lock(&register_lock);
    if (!registered) {
        code = sqlite3_initialize();
        sqlite3_vfs *found = code == SQLITE_OK ? sqlite3_vfs_find(NULL) : NULL;
        if (code == SQLITE_OK && found == NULL) code = SQLITE_ERROR;
        if (code == SQLITE_OK) {
            real_vfs = found;
            memset(&fault_vfs, 0, sizeof fault_vfs);
            fault_vfs.iVersion = real_vfs->iVersion < 3 ? real_vfs->iVersion : 3;
            fault_vfs.szOsFile = (int)sizeof(FaultFile) + real_vfs->szOsFile;
            fault_vfs.mxPathname = real_vfs->mxPathname;
            fault_vfs.zName = "ocd-fault";
            fault_vfs.xOpen = fault_open;
            fault_vfs.xDelete = fault_delete;
            fault_vfs.xAccess = fault_access;
            fault_vfs.xFullPathname = fault_full_pathname;
            fault_vfs.xDlOpen = fault_dl_open;
            fault_vfs.xDlError = fault_dl_error;
            fault_vfs.xDlSym = fault_dl_sym;
            fault_vfs.xDlClose = fault_dl_close;
            fault_vfs.xRandomness = fault_randomness;
            fault_vfs.xSleep = fault_sleep;
            fault_vfs.xCurrentTime = fault_current_time;
            fault_vfs.xGetLastError = fault_get_last_error;
            if (fault_vfs.iVersion >= 2) fault_vfs.xCurrentTimeInt64 = fault_current_time_int64;
            if (fault_vfs.iVersion >= 3) {
                fault_vfs.xSetSystemCall = fault_set_system_call;
                fault_vfs.xGetSystemCall = fault_get_system_call;
                fault_vfs.xNextSystemCall = fault_next_system_call;
            }
            code = sqlite3_vfs_register(&fault_vfs, 1);
            registered = code == SQLITE_OK;
        }
    }
    pthread_mutex_unlock(&register_lock);
    return code;
}
