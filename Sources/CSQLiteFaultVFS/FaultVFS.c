// The VFS itself: registration, and every method but xOpen passing through to the
// wrapped VFS (xDelete can fail too).

#include "CSQLiteFaultVFS.h"
#include "FaultInternal.h"

#include <pthread.h>
#include <string.h>

sqlite3_vfs *ocd_fault_real_vfs = NULL;
static sqlite3_vfs fault_vfs;
static pthread_mutex_t register_lock = PTHREAD_MUTEX_INITIALIZER;
static int registered = 0;

static int fault_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) {
    (void)vfs;
    if (ocd_fault_is_watched(name) && ocd_fault_should_fail(OCD_FAULT_DELETE)) return SQLITE_IOERR_DELETE;
    return ocd_fault_real_vfs->xDelete(ocd_fault_real_vfs, name, sync_dir);
}

static int fault_access(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return ocd_fault_real_vfs->xAccess(ocd_fault_real_vfs, name, flags, result);
}

static int fault_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return ocd_fault_real_vfs->xFullPathname(ocd_fault_real_vfs, name, size, out);
}

static void *fault_dl_open(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return ocd_fault_real_vfs->xDlOpen(ocd_fault_real_vfs, name);
}

static void fault_dl_error(sqlite3_vfs *vfs, int size, char *message) {
    (void)vfs;
    ocd_fault_real_vfs->xDlError(ocd_fault_real_vfs, size, message);
}

static void (*fault_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return ocd_fault_real_vfs->xDlSym(ocd_fault_real_vfs, handle, symbol);
}

static void fault_dl_close(sqlite3_vfs *vfs, void *handle) {
    (void)vfs;
    ocd_fault_real_vfs->xDlClose(ocd_fault_real_vfs, handle);
}

static int fault_randomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return ocd_fault_real_vfs->xRandomness(ocd_fault_real_vfs, size, out);
}

static int fault_sleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return ocd_fault_real_vfs->xSleep(ocd_fault_real_vfs, microseconds);
}

static int fault_current_time(sqlite3_vfs *vfs, double *now) {
    (void)vfs;
    return ocd_fault_real_vfs->xCurrentTime(ocd_fault_real_vfs, now);
}

static int fault_get_last_error(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return ocd_fault_real_vfs->xGetLastError != NULL ? ocd_fault_real_vfs->xGetLastError(ocd_fault_real_vfs, size, out) : 0;
}

static int fault_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
    (void)vfs;
    return ocd_fault_real_vfs->xCurrentTimeInt64(ocd_fault_real_vfs, now);
}

static int fault_set_system_call(sqlite3_vfs *vfs, const char *name, sqlite3_syscall_ptr call) {
    (void)vfs;
    return ocd_fault_real_vfs->xSetSystemCall(ocd_fault_real_vfs, name, call);
}

static sqlite3_syscall_ptr fault_get_system_call(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return ocd_fault_real_vfs->xGetSystemCall(ocd_fault_real_vfs, name);
}

static const char *fault_next_system_call(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return ocd_fault_real_vfs->xNextSystemCall(ocd_fault_real_vfs, name);
}

int ocd_fault_vfs_register(void) {
    int code = SQLITE_OK;
    pthread_mutex_lock(&register_lock);
    if (!registered) {
        code = sqlite3_initialize();
        sqlite3_vfs *found = code == SQLITE_OK ? sqlite3_vfs_find(NULL) : NULL;
        if (code == SQLITE_OK && found == NULL) code = SQLITE_ERROR;
        if (code == SQLITE_OK) {
            ocd_fault_real_vfs = found;
            memset(&fault_vfs, 0, sizeof fault_vfs);
            fault_vfs.iVersion = ocd_fault_real_vfs->iVersion < 3 ? ocd_fault_real_vfs->iVersion : 3;
            fault_vfs.szOsFile = (int)sizeof(FaultFile) + ocd_fault_real_vfs->szOsFile;
            fault_vfs.mxPathname = ocd_fault_real_vfs->mxPathname;
            fault_vfs.zName = "ocd-fault";
            fault_vfs.xOpen = ocd_fault_open;
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
