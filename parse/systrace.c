/* parse/systrace.c: Android systrace/atrace HTML: the ftrace text of its trace-data blocks. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/inflate.h"
#include "parse/load.h"
#include "parse/sink.h"
#include "parse/text.h"
#include "util/strbuf.h"

/*
 * A systrace HTML file holds its data in <script class="trace-data" ...> blocks: ftrace text
 * (the atrace dump, with or without the TGID column), and others (JSON trace events, ...) that
 * trax does not read. Legacy files (catapult before 2015) hold the text in a JavaScript string,
 * `var linuxPerfData = "\` with each line ending in `\n\`. Every ftrace block is appended to
 * one text, read by the ftrace text reader (several blocks: sorted by timestamp there). One
 * block is read in place from the mapped file. atrace's compressed dump (`atrace -z`: its
 * messages, "TRACE:\n", then a zlib stream of the ftrace text) is inflated into a temporary file
 * that is then mapped: anonymous memory does not grow with the trace.
 */

/* Inflate the zlib stream p[0..n) into a temporary file, mapped at *out (*outlen bytes); what
 * follows the stream (the rest of the HTML) is not its. */
static int inflate_map(const char *path, const unsigned char *p, size_t n, char **out,
		       size_t *outlen, struct trax_error *err)
{
	struct trax_zresult res;
	void *map;

	switch (trax_inflate_map(p, n, TRAX_Z_ZLIB | TRAX_Z_TRAILING_OK, 0, &map, outlen, &res)) {
	case TRAX_Z_OK:
		*out = map;
		return 0;
	case TRAX_Z_CORRUPT:
		if (!res.out_len && !strcmp(res.msg, "no data"))
			return trax_error_set(err, TRAX_E_FORMAT, "%s: compressed atrace data is "
					      "empty", path);
		return trax_error_set(err, TRAX_E_FORMAT, "%s: compressed atrace data is corrupt "
				      "or truncated (zlib: %s)", path, res.msg);
	case TRAX_Z_TRUNCATED:
	case TRAX_Z_TRAILING:
	case TRAX_Z_TOO_BIG:
		return trax_error_set(err, TRAX_E_FORMAT, "%s: compressed atrace data is truncated",
				      path);
	case TRAX_Z_NOMEM:
		return trax_error_set(err, TRAX_E_NOMEM, "%s: zlib: cannot start", path);
	case TRAX_Z_WRITE:
		break;
	}
	return trax_error_set(err, TRAX_E_IO, "%s: writing the inflated text to a temporary file: "
			      "%s", path, strerror(res.err_no));
}

/* An atrace -z dump: 1 with the start of its zlib stream. */
static const char *atrace_z(const char *map, size_t size)
{
	size_t lim = size < 65536 ? size : 65536;
	const char *t = memmem(map, lim, "TRACE:\n", 7);

	if (!t || t + 7 >= map + size || (unsigned char)t[7] != 0x78 || memchr(map, '\0', t - map))
		return NULL;
	return t + 7;
}

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

/*
 * atrace -z: "TRACE:\n" (after atrace's own messages), then a zlib stream; or, in a head
 * without NUL bytes, systrace's HTML (a doctype or <html>, or a trace-data script block).
 */
int systrace_sniff(const char *head, size_t n)
{
	const char *t = memmem(head, n, "TRACE:\n", 7), *p = head;

	if (t && t + 7 < head + n && (unsigned char)t[7] == 0x78 && !memchr(head, '\0', t - head))
		return 1;
	if (memchr(head, '\0', n))
		return 0;
	while (isspace((unsigned char)*p))
		p++;
	return !strncasecmp(p, "<!DOCTYPE html", 14) || !strncasecmp(p, "<html", 5) ||
	       strstr(head, "class=\"trace-data\"") || strstr(head, "<script class=\"trace-data\"");
}

int systrace_read(struct loader *L, const char *path, struct trax_error *err)
{
	struct strbuf text = STRBUF_INIT;
	const char *map = NULL, *p, *end;
	struct stat sb;
	const char *one = NULL, *one_end = NULL;
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

	if ((p = atrace_z(map, sb.st_size)) != NULL) {
		char *text_map = NULL;
		size_t text_len = 0;

		ret = inflate_map(path, (const unsigned char *)p, end - p, &text_map, &text_len, err);
		munmap((void *)map, sb.st_size);
		if (ret)
			return ret;
		ld_meta(L, "systrace.form", "atrace -z");
		ret = text_read_mem(L, path, text_map, text_len, err);
		munmap(text_map, text_len);
		return ret;
	}
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
				if (!text_blocks++) {
					/* kept in place unless another block comes */
					one = body;
					one_end = close_tag;
				} else {
					if (one) {
						strbuf_add(&text, one, one_end - one);
						strbuf_addch(&text, '\n');
						one = NULL;
					}
					strbuf_add(&text, body, close_tag - body);
					strbuf_addch(&text, '\n');
				}
			} else {
				other++;
			}
		} else {
			const char *v = memmem(body, close_tag - body, "linuxPerfData", 13), *q;

			if (v && (q = memchr(v, '"', close_tag - v))) {
				blocks++;
				text_blocks++;
				if (one) {
					strbuf_add(&text, one, one_end - one);
					strbuf_addch(&text, '\n');
					one = NULL;
				}
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
	ld_meta(L, "systrace.blocks", "%d", blocks);
	ld_meta(L, "systrace.text_blocks", "%d", text_blocks);
	ld_meta(L, "systrace.other_blocks", "%d", other);
	if (!text_blocks) {
		ret = trax_error_set(err, TRAX_E_FORMAT, "%s: no ftrace text in its trace-data blocks "
				     "(%d block%s of other data)", path, other, other == 1 ? "" : "s");
		goto out;
	}
	/* one block: read in place; several (or the legacy string): the text put together */
	if (one)
		ret = text_read_mem(L, path, one, one_end - one, err);
	else
		ret = text_read_mem(L, path, text.buf, text.len, err);
out:
	munmap((void *)map, sb.st_size);
	strbuf_release(&text);
	return ret;
}
