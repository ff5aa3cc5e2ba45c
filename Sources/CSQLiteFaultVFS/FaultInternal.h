// Shared between the shim's files; not part of the module's public header.
#ifndef CSQLITE_FAULT_INTERNAL_H
#define CSQLITE_FAULT_INTERNAL_H

#include <sqlite3.h>

/// An open file: our methods in front of the wrapped VFS's file, which follows in memory.
typedef struct FaultFile {
    sqlite3_file base;
    sqlite3_file *real;
    int watched;
} FaultFile;

/// The VFS the shim wraps (the default one when the shim was registered).
extern sqlite3_vfs *ocd_fault_real_vfs;

/// Whether `path` is under the watched prefix.
int ocd_fault_is_watched(const char *path);

/// Counts one call of `kind` on a watched file; returns whether it must fail.
int ocd_fault_should_fail(int kind);

/// The error a failed write reports: SQLITE_IOERR_WRITE, or SQLITE_FULL when armed so.
int ocd_fault_write_error(void);

/// xOpen: wraps the real file in a FaultFile.
int ocd_fault_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags);

#endif
