/* util/outfile.c: output files that appear only when complete. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/outfile.h"
#include "util/strbuf.h"
#include "util/tmpfiles.h"

int trax_outfile_open(struct trax_outfile *o, const char *path, struct trax_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	mode_t mask;
	int fd;

	memset(o, 0, sizeof(*o));
	strbuf_addf(&sb, "%s.tmp-XXXXXX", path);
	fd = mkstemp(sb.buf);
	if (fd < 0) {
		strbuf_release(&sb);
		return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
	}
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);	/* mkstemp makes 0600 */
	o->f = fdopen(fd, "wb");
	if (!o->f) {
		int e = errno;

		close(fd);
		unlink(sb.buf);
		strbuf_release(&sb);
		return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(e));
	}
	o->tmp = strbuf_detach(&sb);
	trax_tmpfile_add(o->tmp);
	o->path = strdup(path);
	if (!o->path)
		abort();
	return 0;
}

int trax_outfile_commit(struct trax_outfile *o, struct trax_error *err)
{
	int bad = ferror(o->f), rc;

	rc = fclose(o->f);
	o->f = NULL;
	if (bad || rc != 0 || rename(o->tmp, o->path) < 0) {
		int ret = trax_error_set(err, TRAX_E_IO, "%s: %s", o->path,
					 strerror(errno ? errno : EIO));

		trax_outfile_abort(o);
		return ret;
	}
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
