// The file methods: each failing call returns its I/O error, the rest pass through.

#include "CSQLiteFaultVFS.h"
#include "FaultInternal.h"

#include <stddef.h>

#define REAL(file) (((FaultFile *)(file))->real)
#define FAILS(file, kind) (((FaultFile *)(file))->watched && ocd_fault_should_fail(kind))

static int fault_close(sqlite3_file *file) {
    return REAL(file)->pMethods->xClose(REAL(file));
}

static int fault_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    if (FAILS(file, OCD_FAULT_READ)) return SQLITE_IOERR_READ;
    return REAL(file)->pMethods->xRead(REAL(file), buffer, amount, offset);
}

static int fault_write(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    if (FAILS(file, OCD_FAULT_WRITE)) return ocd_fault_write_error();
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

// MARK: - Opening

int ocd_fault_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    (void)vfs;
    FaultFile *fault = (FaultFile *)file;
    fault->base.pMethods = NULL;
    fault->real = (sqlite3_file *)&fault[1];
    fault->watched = ocd_fault_is_watched(name);
    if (fault->watched && ocd_fault_should_fail(OCD_FAULT_OPEN)) return SQLITE_CANTOPEN;
    int code = ocd_fault_real_vfs->xOpen(ocd_fault_real_vfs, name, fault->real, flags, out_flags);
    if (fault->real->pMethods != NULL) fault->base.pMethods = &fault_io_methods;
    return code;
}
