/* tests/fuzz/fuzz-common.c: scratch folder, loading and the contract checks of the targets. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "parse/parse.h"
#include "tests/fuzz/fuzz.h"

static char scratch[4096];
static char pathbuf[4200];
static char target_name[64];

void fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz-%s: contract broken: ", target_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* Remove every file of the scratch folder, then (at exit) the folder. */
static void scratch_clear(void)
{
	DIR *d = opendir(scratch);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
}

static void scratch_remove(void)
{
	scratch_clear();
	rmdir(scratch);
}

void fuzz_init(const char *target)
{
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");

	snprintf(target_name, sizeof(target_name), "%s", target);
	snprintf(scratch, sizeof(scratch), "%s/trax-fuzz-%s-XXXXXX", base && *base ? base : "/tmp",
		 target);
	if (!mkdtemp(scratch)) {
		fprintf(stderr, "fuzz-%s: cannot make %s: %s\n", target, scratch, strerror(errno));
		exit(1);
	}
	setenv("TMPDIR", scratch, 1);
	atexit(scratch_remove);
}

const char *fuzz_path(const char *name)
{
	snprintf(pathbuf, sizeof(pathbuf), "%s/%s", scratch, name);
	return pathbuf;
}

const char *fuzz_write(const char *name, const uint8_t *data, size_t size)
{
	const char *path = fuzz_path(name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	size_t done = 0;

	if (fd < 0) {
		fprintf(stderr, "fuzz-%s: cannot write %s: %s\n", target_name, path, strerror(errno));
		exit(1);
	}
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0) {
			fprintf(stderr, "fuzz-%s: cannot write %s: %s\n", target_name, path,
				strerror(errno));
			exit(1);
		}
		done += (size_t)n;
	}
	close(fd);
	return path;
}

/* The names in the scratch folder other than keep; "" when there are none. */
static void leftovers(const char *keep, char *out, size_t len)
{
	DIR *d = opendir(scratch);
	struct dirent *e;
	size_t used = 0;

	out[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, keep))
			continue;
		used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s ", e->d_name);
		if (used >= len)
			break;
	}
	closedir(d);
}

/* The database must open and have its meta table, with the format it was loaded from. */
static void db_check(const char *db_path)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'format'", -1, &st,
					NULL);
	if (rc == SQLITE_OK && sqlite3_step(st) != SQLITE_ROW)
		rc = SQLITE_NOTFOUND;
	sqlite3_finalize(st);
	if (rc != SQLITE_OK)
		fuzz_fail("load returned 0 but %s has no meta format row: %s", db_path,
			  db ? sqlite3_errmsg(db) : "cannot open");
	sqlite3_close(db);
}

void fuzz_load_check(const char *path)
{
	char input[4200], db_path[4200], extra[1024];
	const char *name;
	struct trax_load_opts opts = { .events = NULL, .threads = 0 };
	struct trax_error err = { 0 };
	struct stat sb;
	int ret;

	snprintf(input, sizeof(input), "%s", path);
	name = strrchr(input, '/') ? strrchr(input, '/') + 1 : input;
	snprintf(db_path, sizeof(db_path), "%s", fuzz_path("out.db"));
	ret = trax_load(input, db_path, &opts, NULL, &err);
	if (ret > 0)
		fuzz_fail("trax_load returned %d", ret);
	if (ret == 0) {
		if (stat(db_path, &sb) != 0)
			fuzz_fail("load returned 0 and left no database");
		db_check(db_path);
		unlink(db_path);
	} else {
		if (!err.msg[0])
			fuzz_fail("load failed (%d) with no message", ret);
		if (strchr(err.msg, '\n'))
			fuzz_fail("message of more than one line: %s", err.msg);
		if (!strstr(err.msg, input))
			fuzz_fail("message does not name the file %s: %s", input, err.msg);
		if (stat(db_path, &sb) == 0)
			fuzz_fail("load failed but left %s: %s", db_path, err.msg);
	}
	leftovers(name, extra, sizeof(extra));
	if (extra[0])
		fuzz_fail("files left behind: %s(%s)", extra, ret ? err.msg : "load succeeded");
}
