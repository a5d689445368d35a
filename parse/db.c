/* parse/db.c: opening trax databases, loading traces on the fly into a cache. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/input.h"
#include "parse/load.h"
#include "parse/parse.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/tmpfiles.h"

static int mkdir_p(const char *dir)
{
	char tmp[4096];

	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (char *p = tmp + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

/* The cache folder: $TRAX_CACHE_DIR, else $XDG_CACHE_HOME/trax, else ~/.cache/trax. */
static void cache_dir(struct strbuf *sb)
{
	const char *e = getenv("TRAX_CACHE_DIR");

	if (e && *e) {
		strbuf_adds(sb, e);
		return;
	}
	e = getenv("XDG_CACHE_HOME");
	if (e && *e) {
		strbuf_addf(sb, "%s/trax", e);
		return;
	}
	e = getenv("HOME");
	if (e && *e)
		strbuf_addf(sb, "%s/.cache/trax", e);
	else
		strbuf_addf(sb, "/tmp/trax-cache-%d", (int)getuid());
}

static int open_ro(const char *path, sqlite3 **db, struct trax_error *err)
{
	sqlite3_stmt *st = NULL;
	int ok;

	if (sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		trax_error_set(err, TRAX_E_DB, "%s: %s", path, sqlite3_errmsg(*db));
		sqlite3_close(*db);
		*db = NULL;
		return -TRAX_E_DB;
	}
	ok = sqlite3_prepare_v2(*db, "SELECT value FROM meta WHERE key='trax.version'", -1, &st,
				NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	if (!ok) {
		sqlite3_close(*db);
		*db = NULL;
		return trax_error_set(err, TRAX_E_FORMAT, "%s: an SQLite file but not a trax database",
				      path);
	}
	sqlite3_busy_timeout(*db, 5000);
	return 0;
}

int trax_db_open(const char *path, const char *events, sqlite3 **db, struct trax_error *err)
{
	struct strbuf dir = STRBUF_INIT, key = STRBUF_INIT, dbpath = STRBUF_INIT;
	struct trax_load_opts opts = { .events = events };
	enum trax_format fmt;
	struct stat sb;
	char hex[65], *real = NULL;
	int ret;

	*db = NULL;
	if (getenv("TRAX_NO_CACHE") || trax_input_is_stream(path)) {
		/*
		 * A private load, gone when the connection closes: asked for, or a piped trace
		 * (copied first, parse/input.h; it has no identity to cache it by).
		 */
		char tmpl[] = "/tmp/trax-XXXXXX";
		char *d = mkdtemp(tmpl);
		struct trax_input in;

		if (!d)
			return trax_error_set(err, TRAX_E_IO, "/tmp: %s", strerror(errno));
		strbuf_addf(&dbpath, "%s/stdin", d);
		ret = trax_input_open(&in, path, dbpath.buf, err);
		if (!ret)
			ret = trax_detect_format(in.path, &fmt, err);
		if (!ret && fmt == TRAX_FMT_DB) {
			ret = open_ro(in.path, db, err);
		} else if (!ret) {
			strbuf_reset(&dbpath);
			strbuf_addf(&dbpath, "%s/trace.db", d);
			ret = ld_load_named(in.path, strcmp(in.name, in.path) ? in.name : NULL,
					    dbpath.buf, &opts, NULL, err);
			if (!ret)
				ret = open_ro(dbpath.buf, db, err);
			unlink(dbpath.buf);
		}
		if (ret)
			trax_input_rename_error(err, in.path, in.name);
		trax_input_release(&in);	/* an open db reads on from the removed file */
		rmdir(d);
		goto out;
	}
	ret = trax_detect_format(path, &fmt, err);
	if (ret)
		return ret;
	if (fmt == TRAX_FMT_DB)
		return open_ro(path, db, err);

	/* Cache key: the file's identity and the set of events loaded. */
	real = realpath(path, NULL);
	if (stat(path, &sb) < 0) {
		ret = trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
		goto out;
	}
	strbuf_addf(&key, "%s|%llu|%llu|%lld|%lld.%09ld|%s|%s", real ? real : path,
		    (unsigned long long)sb.st_dev, (unsigned long long)sb.st_ino,
		    (long long)sb.st_size, (long long)sb.st_mtim.tv_sec, sb.st_mtim.tv_nsec,
		    events ? events : "*all*", TRAX_VERSION);
	{
		/* and the loader itself: a rebuilt trax may load differently */
		struct stat self;

		if (stat("/proc/self/exe", &self) == 0)
			strbuf_addf(&key, "|%lld|%lld.%09ld", (long long)self.st_size,
				    (long long)self.st_mtim.tv_sec, self.st_mtim.tv_nsec);
	}
	sha256_hex(key.buf, key.len, hex);
	cache_dir(&dir);
	if (mkdir_p(dir.buf) < 0) {
		ret = trax_error_set(err, TRAX_E_IO, "%s: cannot create cache folder: %s", dir.buf,
				     strerror(errno));
		goto out;
	}
	/* the temporary dbs of loads that were killed (SIGKILL: no handler ran) go */
	trax_tmpfile_sweep(dir.buf);
	strbuf_addf(&dbpath, "%s/%.32s.db", dir.buf, hex);
	if (access(dbpath.buf, R_OK) == 0) {
		ret = open_ro(dbpath.buf, db, err);
		if (!ret)
			goto out;
		unlink(dbpath.buf);	/* a stale or foreign file: load again */
	}
	ret = trax_load(path, dbpath.buf, &opts, NULL, err);
	if (!ret)
		ret = open_ro(dbpath.buf, db, err);
out:
	free(real);
	strbuf_release(&dir);
	strbuf_release(&key);
	strbuf_release(&dbpath);
	return ret;
}

char *trax_db_string(sqlite3 *db, const char *sql, const char *arg)
{
	sqlite3_stmt *st = NULL;
	char *v = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			v = strdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return v;
}

char *trax_db_meta(sqlite3 *db, const char *key)
{
	return trax_db_string(db, "SELECT value FROM meta WHERE key=?", key);
}

int trax_db_meta_int(sqlite3 *db, const char *key, int64_t *v)
{
	char *s = trax_db_meta(db, key), *end;
	long long n;
	int ret = -1;

	if (s && !strcmp(s, "unknown")) {
		ret = 1;
	} else if (s) {
		errno = 0;
		n = strtoll(s, &end, 10);
		if (!errno && end != s && !*end) {
			*v = n;
			ret = 0;
		}
	}
	free(s);
	return ret;
}
