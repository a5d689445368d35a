/* parse/systrace.c: Android systrace/atrace HTML: the ftrace text of its trace-data blocks. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/loader.h"
#include "parse/text.h"
#include "util/strbuf.h"

/*
 * A systrace HTML file holds its data in <script class="trace-data" ...> blocks: ftrace text
 * (the atrace dump, with or without the TGID column), and others (JSON trace events, ...) that
 * trax does not read. Legacy files (catapult before 2015) hold the text in a JavaScript string,
 * `var linuxPerfData = "\` with each line ending in `\n\`. Every ftrace block is appended to
 * one text, read by the ftrace text reader (several blocks: sorted by timestamp there).
 */

static const char *find_ci(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	for (; p + n <= end; p++)
		if (!strncasecmp(p, lit, n))
			return p;
	return NULL;
}

/* Whether a block's content is JSON (or anything not ftrace text). */
static int block_is_text(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	if (p == end || *p == '{' || *p == '[')
		return 0;
	return text_looks_like_ftrace(p, end - p) || *p == '#';
}

/* The legacy JavaScript string: lines end in "\n\" or "\"; the closing `";` ends it. */
static void add_legacy(struct strbuf *out, const char *p, const char *end)
{
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *le = nl ? nl : end, *t = le;

		while (t > p && (t[-1] == '\r' || t[-1] == ' '))
			t--;
		if (t - p >= 2 && t[-1] == '"' && t[-2] != '\\') {
			/* `";` or `"` closing the string (possibly after text) */
			break;
		}
		if (t - p >= 2 && t[-2] == '"' && t[-1] == ';')
			break;
		if (t > p && t[-1] == '\\')
			t--;
		if (t - p >= 2 && t[-2] == '\\' && t[-1] == 'n')
			t -= 2;
		strbuf_add(out, p, t - p);
		strbuf_addch(out, '\n');
		p = nl ? nl + 1 : end;
	}
}

int systrace_read(struct loader *L, const char *path, struct trax_error *err)
{
	struct strbuf text = STRBUF_INIT;
	const char *map = NULL, *p, *end;
	struct stat sb;
	int fd, ret, blocks = 0, text_blocks = 0, other = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
	if (fstat(fd, &sb) < 0 || sb.st_size == 0) {
		ret = sb.st_size == 0 ? trax_error_set(err, TRAX_E_FORMAT, "%s: empty file", path)
				      : trax_error_set(err, TRAX_E_IO, "%s: %s", path, strerror(errno));
		close(fd);
		return ret;
	}
	map = mmap(NULL, sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return trax_error_set(err, TRAX_E_IO, "%s: cannot map: %s", path, strerror(errno));
	end = map + sb.st_size;

	for (p = map; (p = find_ci(p, end, "<script")) != NULL;) {
		const char *tag_end = memchr(p, '>', end - p), *body, *close_tag;

		if (!tag_end)
			break;
		body = tag_end + 1;
		close_tag = find_ci(body, end, "</script");
		if (!close_tag)
			close_tag = end;
		if (memmem(p, tag_end - p, "trace-data", 10)) {
			blocks++;
			if (block_is_text(body, close_tag)) {
				text_blocks++;
				strbuf_add(&text, body, close_tag - body);
				strbuf_addch(&text, '\n');
			} else {
				other++;
			}
		} else {
			const char *v = memmem(body, close_tag - body, "linuxPerfData", 13), *q;

			if (v && (q = memchr(v, '"', close_tag - v))) {
				blocks++;
				text_blocks++;
				q++;
				while (q < close_tag && (*q == '\\' || *q == '\r' || *q == '\n'))
					q++;
				add_legacy(&text, q, close_tag);
			}
		}
		p = close_tag;
		if (p < end)
			p++;
	}
	munmap((void *)map, sb.st_size);
	ld_meta(L, "systrace.blocks", "%d", blocks);
	ld_meta(L, "systrace.text_blocks", "%d", text_blocks);
	ld_meta(L, "systrace.other_blocks", "%d", other);
	if (!text_blocks) {
		ret = trax_error_set(err, TRAX_E_FORMAT, "%s: no ftrace text in its trace-data blocks "
				     "(%d block%s of other data)", path, other, other == 1 ? "" : "s");
		goto out;
	}
	ret = text_read_mem(L, path, text.buf, text.len, err);
out:
	strbuf_release(&text);
	return ret;
}
