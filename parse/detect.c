/* parse/detect.c: telling trace.dat, ftrace text, systrace HTML and trax databases apart. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/parse.h"
#include "parse/text.h"

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
	if (n >= 10 && !memcmp(buf, "\x17\x08\x44tracing", 10)) {
		*fmt = TRAX_FMT_DAT;
		return 0;
	}
	if (n >= 16 && !memcmp(buf, "SQLite format 3", 16)) {
		*fmt = TRAX_FMT_DB;
		return 0;
	}
	{
		/* atrace -z: "TRACE:\n" (after atrace's own messages), then a zlib stream */
		const char *t = memmem(buf, n, "TRACE:\n", 7);

		if (t && t + 7 < buf + n && (unsigned char)t[7] == 0x78 &&
		    !memchr(buf, '\0', t - buf)) {
			*fmt = TRAX_FMT_SYSTRACE;
			return 0;
		}
	}
	if (memchr(buf, '\0', n))
		return trax_error_set(err, TRAX_E_FORMAT,
				      "%s: unrecognized binary content (not trace.dat, not a trax db)",
				      path);
	{
		const char *p = buf;

		while (isspace((unsigned char)*p))
			p++;
		if (!strncasecmp(p, "<!DOCTYPE html", 14) || !strncasecmp(p, "<html", 5) ||
		    strstr(buf, "class=\"trace-data\"") || strstr(buf, "<script class=\"trace-data\""))
		{
			*fmt = TRAX_FMT_SYSTRACE;
			return 0;
		}
	}
	if (text_looks_like_ftrace(buf, n)) {
		*fmt = TRAX_FMT_TEXT;
		return 0;
	}
	return trax_error_set(err, TRAX_E_FORMAT,
			      "%s: unrecognized content (no ftrace event lines, not trace.dat, "
			      "systrace or a trax db)", path);
}
