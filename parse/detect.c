/* parse/detect.c: telling the formats of parse/readers.h and trax databases apart, by content. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/parse.h"
#include "parse/load.h"

int trax_detect_format(const char *path, enum trax_format *fmt, struct trax_error *err)
{
	char buf[65536];
	struct stat sb;
	ssize_t n;
	int fd;

	*fmt = TRAX_FMT_UNKNOWN;
	if (stat(path, &sb) < 0)
		return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
	if (S_ISDIR(sb.st_mode))
		return trax_error_set(err, TRAX_E_IO, "%s: is a directory, not a trace", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
	if (n == 0)
		return trax_error_set(err, TRAX_E_FORMAT, "%s: empty file", path);
	buf[n] = '\0';
	if (n >= 16 && !memcmp(buf, "SQLite format 3", 16)) {
		*fmt = TRAX_FMT_DB;
		return 0;
	}
	/* the readers' sniffers in table order; the text formats only for a head without NUL */
	for (int i = 0; i < trax_nreaders; i++) {
		const struct trax_reader *rd = &trax_readers[i];

		if (rd->text && n >= 2 && !memcmp(buf, "\x1f\x8b", 2))
			return trax_error_set(err, TRAX_E_FORMAT, "%s: gzip'd, but not a Perfetto "
					      "trace, or its first bytes do not inflate (trax reads "
					      "other formats uncompressed)", path);
		if (rd->text && memchr(buf, '\0', n))
			return trax_error_set(err, TRAX_E_FORMAT, "%s: unrecognized binary content "
					      "(not trace.dat, Perfetto or a trax db)", path);
		if (rd->sniff(buf, (size_t)n)) {
			*fmt = rd->fmt;
			return 0;
		}
	}
	return trax_error_set(err, TRAX_E_FORMAT,
			      "%s: unrecognized content (no ftrace event lines, not trace.dat, "
			      "systrace, Perfetto or a trax db)", path);
}
