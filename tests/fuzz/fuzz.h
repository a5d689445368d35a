/* tests/fuzz/fuzz.h: what the libFuzzer targets share (fuzz-common.c). */
#ifndef TRAX_FUZZ_H
#define TRAX_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry points, defined by each target (fuzz-*.c). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Set up the target's scratch folder (a fresh one under /dev/shm, else TMPDIR or /tmp, removed
 * at exit) and point TMPDIR at it, so that every temporary file trax makes is seen by the check
 * that nothing is left behind.
 */
void fuzz_init(const char *target);

/* The scratch folder's path of a file name. Must not be freed; valid until the next call. */
const char *fuzz_path(const char *name);

/* Write data[0..size) to the scratch file name; returns its path (as fuzz_path()). */
const char *fuzz_write(const char *name, const uint8_t *data, size_t size);

/*
 * Load the file at path into a database in the scratch folder, as `trax load` does, and check
 * the contract every input must keep: either a database that opens and has its meta table, or
 * a negative error with a one-line message naming the file and no database; never a positive
 * return; and afterwards nothing in the scratch folder but the input itself. A breach aborts
 * (a finding). The database is removed afterwards.
 */
void fuzz_load_check(const char *path);

/* Abort with a message: the input broke the contract (libFuzzer saves it as a crash). */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
