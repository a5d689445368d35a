/* util/error.h: trax's error codes and the message that travels with them. */
#ifndef TRAX_UTIL_ERROR_H
#define TRAX_UTIL_ERROR_H

#include <stdarg.h>

/*
 * Every error code once, with its generic text. Functions in the libraries return 0 or a
 * negative TRAX_E_* code and fill a struct trax_error with a complete one-line message
 * ("trace.dat: truncated in CPU 3 data"); only cmd/ prints it.
 */
#define TRAX_ERRORS                                                         \
	_E(OK, "success")                                                   \
	_E(NOMEM, "out of memory")                                          \
	_E(IO, "I/O error")                                                 \
	_E(FORMAT, "unrecognized or corrupt input")                         \
	_E(UNSUPPORTED, "unsupported input")                                \
	_E(DB, "database error")                                            \
	_E(USAGE, "invalid usage")                                          \
	_E(RULES, "invalid rule file")                                      \
	_E(EVAL, "evaluation error")                                        \
	_E(TRACEFS, "tracefs error")                                        \
	_E(PERM, "permission denied")                                       \
	_E(WORKLOAD, "workload failed")                                     \
	_E(INTERRUPTED, "interrupted")

#define _E(name, text) TRAX_E_##name,
enum trax_errno { TRAX_ERRORS TRAX_E__COUNT };
#undef _E

struct trax_error {
	int code;		/* positive enum trax_errno value, 0 when none */
	char msg[1024];		/* one line, names the file and the problem */
};

/* The generic text of a code (positive or negative). Never NULL; must not be freed. */
const char *trax_strerror(int code);

/* Set err (may be NULL) to code and a printf-formatted message; returns -code. */
int trax_error_set(struct trax_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int trax_error_vset(struct trax_error *err, int code, const char *fmt, va_list ap);

/* Clear err (may be NULL). */
void trax_error_clear(struct trax_error *err);

/*
 * Several problems at once (every error of a rule file): one complete line each, in the order
 * they were found. Zero-initialise; release with trax_error_list_release().
 */
struct trax_error_list {
	char **msg;
	int n, cap;
};

/* Append a copy of msg (newlines become spaces: one line each). */
void trax_error_list_add(struct trax_error_list *l, const char *msg);
/* Free the lines; l is left empty (and may be reused). */
void trax_error_list_release(struct trax_error_list *l);

#endif
