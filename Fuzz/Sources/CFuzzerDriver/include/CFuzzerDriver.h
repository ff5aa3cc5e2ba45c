#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, from libclang_rt.fuzzer_no_main (linked by run.sh): runs the
/// fuzzing loop with `callback` as the target, parsing libFuzzer's flags from argv.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
