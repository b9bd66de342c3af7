// libFuzzer's entry point for a program that has its own main (libclang_rt.fuzzer_no_main):
// it parses libFuzzer's flags from argc and argv, then fuzzes `callback` or replays the inputs
// given. Only declared here: the MnemoFuzz target calls it in a fuzzing build (FUZZING defined),
// which Scripts/fuzz/fuzz.sh links with that runtime; a plain build never references it.
#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
