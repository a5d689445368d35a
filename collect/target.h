/* collect/target.h: the machine a capture runs on: this one, a board over ssh, a phone over adb. */
#ifndef TRAX_COLLECT_TARGET_H
#define TRAX_COLLECT_TARGET_H

#include "util/error.h"
#include "util/strbuf.h"

/*
 * A target is reached only through the tools a user already has: `ssh` (OpenSSH, BatchMode:
 * keys or an agent, never a password prompt) and `adb`. Their command words come from
 * $TRAX_SSH and $TRAX_ADB (split at blanks; default "ssh" and "adb"), so a user or a test can
 * add options such as `ssh -F CONFIG`. Files travel as `adb push`/`adb pull`, and over ssh as
 * `cat` on a second connection (no scp or sftp server needed on a board).
 */
enum target_kind { TARGET_LOCAL, TARGET_SSH, TARGET_ADB };

struct trax_target {
	enum target_kind kind;
	char *spec;		/* as given: "ssh://root@board:2222", "adb:SERIAL", "local" */
	char *host;		/* ssh: "[user@]host" */
	char *port;		/* ssh: the port, or NULL */
	char *serial;		/* adb: the serial, or NULL (the only device) */
	char **tool;		/* the ssh or adb command words, NULL-terminated */
	int ntool;
};

/*
 * Parse TARGET: "local", "ssh://[user@]host[:port]" (an IPv6 host in brackets), "adb" or
 * "adb:SERIAL". Returns 0 and *out (target_free()), or -TRAX_E_USAGE with err filled.
 */
int target_parse(const char *spec, struct trax_target **out, struct trax_error *err);
void target_free(struct trax_target *t);

/* One command's plumbing. in_fd: the command's stdin (-1: /dev/null); stdout is captured into
 * out unless out_fd >= 0 (then written there); stderr is always captured into errs, and its
 * "trax collect: warning: " lines are also relayed to this process's stderr as they come when
 * errs_live is set. status: the command's exit status
 * (0-255; 128 + N when killed by signal N). */
struct target_io {
	int in_fd;
	int out_fd;
	int errs_live;
	struct strbuf out;
	struct strbuf errs;
	int status;
};
#define TARGET_IO_INIT { -1, -1, 0, STRBUF_INIT, STRBUF_INIT, -1 }
void target_io_release(struct target_io *io);

/*
 * Run cmdline (a POSIX shell command line) on the target and wait for it. Returns 0 when it
 * ran, whatever its status (in io->status), or a negative error when the target could not be
 * reached or was lost (err: "TARGET: unreachable (ssh: ...)", "authentication refused",
 * "connection lost", "no device", ...).
 */
int target_sh(struct trax_target *t, const char *cmdline, struct target_io *io,
	      struct trax_error *err);
/* target_sh() with its plumbing in arguments: stdout appended to out and stderr to errs
 * (either may be NULL) unless out_fd >= 0. The command's status, or a negative error. */
int target_run(struct trax_target *t, const char *cmd, int in_fd, int out_fd, struct strbuf *out,
	       struct strbuf *errs, struct trax_error *err);

struct trax_collect_opts;
/* A note of a capture on t ("TARGET: ..."), through o->note when it is set. */
void target_note(const struct trax_collect_opts *o, const struct trax_target *t,
		 const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Copy a local file to the target, and back. pull writes local only when the whole file came
 * (a temporary name beside it, then rename). 0, or a negative error naming both paths. */
int target_push(struct trax_target *t, const char *local, const char *remote,
		struct trax_error *err);
int target_pull(struct trax_target *t, const char *remote, const char *local,
		struct trax_error *err);

/* adb: ask adbd to run as root (`adb root`, then wait for the device). 0: root now; 1:
 * refused (a production build); or a negative error. */
int target_adb_root(struct trax_target *t, struct trax_error *err);

/* Whether the target answers now (adb: `adb get-state` says "device"; ssh: `true` runs). */
int target_alive(struct trax_target *t);

/* The last non-empty line of s, without its newline, appended to out (a tool's message). */
void target_last_line(const char *s, struct strbuf *out);
/* OUT's sibling with suffix in place of its extension (OUT.log, OUT.rtapp.json): what a
 * local capture names its workload's log and converted rt-app JSON. Malloc'd. */
char *target_sibling(const char *out, const char *suffix);

/* Append word to sb quoted for a POSIX shell ('...', with ' as '\''). */
void sh_quote(struct strbuf *sb, const char *word);

#endif
