// The shim's configuration and counters, guarded by one mutex.

#include "CSQLiteFaultVFS.h"
#include "FaultInternal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static char *watched_prefix = NULL;
static int counted_mask = 0;
static long fail_at = 0;
static int fail_persistent = 0;
static int fail_full = 0;
static long call_count = 0;
static long fault_count = 0;

int ocd_fault_is_watched(const char *path) {
    int watched = 0;
    if (path == NULL) return 0;
    pthread_mutex_lock(&state_lock);
    if (watched_prefix != NULL) watched = strncmp(path, watched_prefix, strlen(watched_prefix)) == 0;
    pthread_mutex_unlock(&state_lock);
    return watched;
}

int ocd_fault_should_fail(int kind) {
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

int ocd_fault_write_error(void) {
    pthread_mutex_lock(&state_lock);
    int full = fail_full;
    pthread_mutex_unlock(&state_lock);
    return full ? SQLITE_FULL : SQLITE_IOERR_WRITE;
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
