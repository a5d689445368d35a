/* util/outfile.c: output files that appear only when complete. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/outfile.h"
#include "util/strbuf.h"
#include "util/tmpfiles.h"
#include "util/xalloc.h"

int trax_outfile_special(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

int trax_outfile_open(struct trax_outfile *o, const char *path, struct trax_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int fd;

	memset(o, 0, sizeof(*o));
	/* a character device or a FIFO is written in place; a disk or a socket refused */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
			return trax_error_set(err, TRAX_E_USAGE, "%s: a block device or a socket; "
					      "trax writes files, character devices and FIFOs",
					      path);
		o->f = fopen(path, "wb");
		if (!o->f)
			return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
		o->direct = 1;
		o->path = xstrdup(path);
		return 0;
	}
	strbuf_addf(&sb, "%s.tmp-XXXXXX", path);
	fd = trax_tmpfile_create(sb.buf);	/* the umask's mode, as fopen would give */
	if (fd < 0) {
		strbuf_release(&sb);
		return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
	}
	o->f = fdopen(fd, "wb");
	if (!o->f) {
		int e = errno;

		close(fd);
		unlink(sb.buf);
		trax_tmpfile_forget(sb.buf);
		strbuf_release(&sb);
		return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(e));
	}
	o->tmp = strbuf_detach(&sb);
	o->path = xstrdup(path);
	return 0;
}

int trax_outfile_commit(struct trax_outfile *o, struct trax_error *err)
{
	int bad = ferror(o->f), rc;

	rc = fclose(o->f);
	o->f = NULL;
	if (bad || rc != 0 || (!o->direct && rename(o->tmp, o->path) < 0)) {
		int ret = trax_error_set(err, TRAX_E_IO, "%s: %s", o->path,
					 strerror(errno ? errno : EIO));

		trax_outfile_abort(o);
		return ret;
	}
	if (o->tmp)
		trax_tmpfile_forget(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	free(o->path);
	o->path = NULL;
	return 0;
}

void trax_outfile_abort(struct trax_outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp) {
		unlink(o->tmp);
		trax_tmpfile_forget(o->tmp);
	}
	free(o->tmp);
	o->tmp = NULL;
	free(o->path);
	o->path = NULL;
}

/* The same existing file: by device and inode. */
static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* "REALDIR/BASE" of a path that need not exist (its folder does), in buf; else path itself. */
static void canonical_name(const char *path, char *buf, size_t len)
{
	char d[PATH_MAX], b[PATH_MAX], *real;

	snprintf(d, sizeof(d), "%s", path);
	snprintf(b, sizeof(b), "%s", path);
	real = realpath(dirname(d), NULL);
	if (real)
		snprintf(buf, len, "%s/%s", real, basename(b));
	else
		snprintf(buf, len, "%s", path);
	free(real);
}

int trax_outfile_check(const char *const *inputs, int nin, const char *const *outputs, int nout,
		       struct trax_error *err)
{
	for (int o = 0; o < nout; o++) {
		struct stat so, s;
		int exists;

		if (!outputs[o])
			continue;
		exists = stat(outputs[o], &so) == 0;
		for (int i = 0; exists && i < nin; i++)
			if (inputs[i] && stat(inputs[i], &s) == 0 && same_file(&so, &s))
				return trax_error_set(err, TRAX_E_USAGE, "%s: the output is the input "
						      "%s (the same file); refusing to overwrite it",
						      outputs[o], inputs[i]);
		for (int p = 0; p < o; p++) {
			char a[2 * PATH_MAX], b[2 * PATH_MAX];
			int clash;

			if (!outputs[p])
				continue;
			if (exists) {
				clash = stat(outputs[p], &s) == 0 && same_file(&so, &s);
			} else {
				canonical_name(outputs[o], a, sizeof(a));
				canonical_name(outputs[p], b, sizeof(b));
				clash = !strcmp(a, b);
			}
			if (clash)
				return trax_error_set(err, TRAX_E_USAGE, "%s and %s are the same file: "
						      "two outputs cannot share it", outputs[p],
						      outputs[o]);
		}
	}
	return 0;
}

int trax_outfile_same_fd(const char *path, int fd)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && S_ISREG(a.st_mode) && stat(path, &b) == 0 &&
	       same_file(&a, &b);
}
