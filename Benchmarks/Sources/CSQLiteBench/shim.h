#include <sqlite3.h>
#ifdef __linux__
// mallinfo2(), for the heap-bytes-per-object report (Harness/HeapInUse.swift).
#include <malloc.h>
#endif
