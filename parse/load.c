/* parse/load.c: the load driver: a trace into a new database through its format's reader. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/input.h"
#include "parse/load.h"
#include "parse/sink.h"
#include "util/clock.h"
#include "util/outfile.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/tmpfiles.h"

const struct trax_reader trax_readers[] = {
#define READER(id, name, sniff, read, text) { TRAX_FMT_##id, name, sniff, read, text },
#include "parse/readers.h"
};
const int trax_nreaders = sizeof(trax_readers) / sizeof(trax_readers[0]);

const char *trax_format_name(enum trax_format fmt)
{
	for (int i = 0; i < trax_nreaders; i++)
		if (trax_readers[i].fmt == fmt)
			return trax_readers[i].name;
	return fmt == TRAX_FMT_DB ? "sqlite" : "unknown";
}

/*
 * The source's SHA-256, computed on a thread while the reader runs: it reads the whole file
 * once more, and the reader does not need it (meta is written when the load ends).
 */
struct source_hash {
	pthread_t thread;
	const char *path;
	char hex[65];
	int started, ret, err;
};

static void *hash_main(void *arg)
{
	struct source_hash *h = arg;

	h->ret = sha256_file_hex(h->path, h->hex);
	h->err = errno;
	return NULL;
}

/* The hash thread, when one runs, has ended. */
static void hash_wait(struct source_hash *h)
{
	if (h->started)
		pthread_join(h->thread, NULL);
	h->started = 0;
}

/* The hash into meta (its place kept by source_meta); 0, or the error of reading it. */
static int hash_join(struct loader *L, struct source_hash *h, struct trax_error *err)
{
	hash_wait(h);
	if (h->ret < 0)
		return trax_error_set(err, TRAX_E_IO, "%s: cannot read: %s", h->path,
				      strerror(h->err));
	ld_meta(L, "source.sha256", "%s", h->hex);
	return 0;
}

/* Source identity in meta: path (name when it is a copy), size, sha256 (started here, once,
 * and joined by hash_join). */
static int source_meta(struct loader *L, const char *path, const char *name,
		       enum trax_format fmt, struct source_hash *h, struct trax_error *err)
{
	struct stat sb;
	char *real = name ? NULL : realpath(path, NULL);

	if (stat(path, &sb) < 0) {
		free(real);
		return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
	}
	h->path = path;
	h->started = !pthread_create(&h->thread, NULL, hash_main, h);
	if (!h->started)	/* no thread to be had: here, now */
		hash_main(h);
	ld_meta(L, "source.path", "%s", real ? real : name ? name : path);
	ld_meta(L, "source.size", "%lld", (long long)sb.st_size);
	ld_meta(L, "source.sha256", "%s", "");
	ld_meta(L, "format", "%s", trax_format_name(fmt));
	ld_meta(L, "trax.version", "%s", TRAX_VERSION);
	free(real);
	return 0;
}

/*
 * A database error that is about the output, whatever step met it ("database or disk is full",
 * "disk I/O error"), names the output when it does not already.
 */
static void name_output(struct trax_error *err, const char *db_path)
{
	static const int codes[] = { SQLITE_FULL, SQLITE_IOERR };
	char msg[sizeof(err->msg)];

	if (!err || !strncmp(err->msg, db_path, strlen(db_path)))
		return;
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		if (!strstr(err->msg, sqlite3_errstr(codes[i])))
			continue;
		snprintf(msg, sizeof(msg), "%s", err->msg);
		trax_error_set(err, TRAX_E_DB, "%s: %s%s", db_path, msg, codes[i] == SQLITE_FULL ?
			       " (on its disk, or in SQLite's temporary folder: $SQLITE_TMPDIR, "
			       "$TMPDIR, /var/tmp, /tmp)" : "");
		return;
	}
}

int trax_load(const char *trace, const char *db_path, const struct trax_load_opts *opts,
	      struct trax_load_stats *stats, struct trax_error *err)
{
	return ld_load_named(trace, NULL, db_path, opts, stats, err);
}

int ld_load_named(const char *trace, const char *name, const char *db_path,
		  const struct trax_load_opts *opts, struct trax_load_stats *stats,
		  struct trax_error *err)
{
	struct trax_load_stats st = { 0 };
	struct trax_input in;
	struct strbuf base = STRBUF_INIT;
	enum trax_format fmt;
	struct loader *L = NULL;
	struct source_hash hash = { 0 };
	sqlite3 *db = NULL;
	char *tmp = NULL;
	double t0 = trax_now_s();
	int fd = -1, ret;

	{
		const char *ins[] = { trace }, *outs[] = { db_path };

		ret = trax_outfile_check(ins, 1, outs, 1, err);
		if (ret)
			return ret;
	}
	/* a device or FIFO there (-o /dev/null) would be replaced by the rename */
	if (trax_outfile_special(db_path))
		return trax_error_set(err, TRAX_E_USAGE, "%s: not a regular file (a database is "
				      "written to a file)", db_path);
	/* a piped trace: copied beside the db first */
	strbuf_addf(&base, "%s.stdin", db_path);
	ret = trax_input_open(&in, trace, base.buf, err);
	strbuf_release(&base);
	if (!name && strcmp(in.name, in.path))
		name = in.name;		/* "-", or the copy of a pipe */
	trace = in.path;
	if (!ret)
		ret = trax_detect_format(trace, &fmt, err);
	if (!ret && fmt == TRAX_FMT_DB)
		ret = trax_error_set(err, TRAX_E_USAGE, "%s: an SQLite database, not a trace",
				     trace);
	if (ret) {
		if (name)
			trax_input_rename_error(err, trace, name);
		trax_input_release(&in);
		return ret;
	}

	/* Build beside the destination, then rename: a db that exists is a complete db. */
	{
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s.tmp-XXXXXX", db_path);
		tmp = strbuf_detach(&sb);
	}
	/* the umask's mode; locked while this process lives (a cache sweep spares it) */
	fd = trax_tmpfile_create(tmp);
	if (fd < 0) {
		ret = trax_error_set(err, TRAX_E_IO, "%s: cannot create: %s", db_path,
				     strerror(errno));
		free(tmp);
		trax_input_release(&in);
		return ret;
	}
	if (sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL)) {
		ret = trax_error_set(err, TRAX_E_DB, "%s: %s", db_path, sqlite3_errmsg(db));
		goto out;
	}
	/* Bulk load: no journal (the temp file is renamed only when complete), large pages
	 * (fewer page splits per row), a bounded cache, sorting for indexes on two threads and
	 * spilling to files rather than memory. */
	ret = ld_exec_sql(db, "PRAGMA page_size=65536; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
		       "PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-32768; PRAGMA threads=2;"
		       "PRAGMA temp_store=FILE; BEGIN", err);
	if (ret)
		goto out;
	L = ld_alloc(db, opts, err);
	if (!L) {
		ret = trax_error_set(err, TRAX_E_NOMEM, "out of memory");
		goto out;
	}
	ret = source_meta(L, trace, name, fmt, &hash, err);
	if (ret)
		goto out;
	{
		const struct trax_reader *rd = NULL;

		for (int i = 0; i < trax_nreaders && !rd; i++)
			if (trax_readers[i].fmt == fmt)
				rd = &trax_readers[i];
		ret = rd ? rd->read(L, trace, err) :
			   trax_error_set(err, TRAX_E_UNSUPPORTED, "%s: %s input is not supported",
					  trace, trax_format_name(fmt));
	}
	if (!ret)
		ret = hash_join(L, &hash, err);
	if (ret)
		goto out;
	st.decode_s = -t0;
	ret = ld_finish(L, &st);
	if (ret)
		goto out;
	ret = ld_exec_sql(db, "COMMIT", err);
	if (ret)
		goto out;
	if (sqlite3_close(db) != SQLITE_OK) {
		ret = trax_error_set(err, TRAX_E_DB, "%s: cannot close the database", db_path);
		db = NULL;
		goto out;
	}
	db = NULL;
	if (rename(tmp, db_path) < 0) {
		ret = trax_error_set(err, TRAX_E_IO, "%s: %s", db_path, strerror(errno));
		goto out;
	}
	st.total_s = trax_now_s() - t0;
	if (stats)
		*stats = st;
out:
	hash_wait(&hash);	/* the reader failed: its error is the one to give */
	ld_free(L);
	if (db)
		sqlite3_close(db);
	if (ret)
		unlink(tmp);
	if (fd >= 0)
		close(fd);
	trax_tmpfile_forget(tmp);
	free(tmp);
	if (ret == -TRAX_E_DB)
		name_output(err, db_path);
	if (ret && name)
		trax_input_rename_error(err, trace, name);
	trax_input_release(&in);
	return ret;
}
