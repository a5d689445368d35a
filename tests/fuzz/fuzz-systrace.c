/*
 * tests/fuzz/fuzz-systrace.c: Android systrace HTML through trax_load: parse/systrace.c's
 * trace-data blocks (modern, legacy `linuxPerfData` strings, atrace -z zlib dumps), the atrace
 * markers and the Android derivations. An input that does not start with '<' is the text of
 * one trace-data block: it is wrapped in systrace's HTML first, so that mutations of the ftrace
 * text inside reach the markers' parser and are not all lost to detection.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"

static const char head[] = "<!DOCTYPE html>\n<html>\n<head><meta charset=\"utf-8\"/></head>\n"
			   "<body>\n<script class=\"trace-data\" type=\"application/text\">\n";
static const char tail[] = "\n</script>\n</body>\n</html>\n";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init("systrace");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *html;
	size_t n = 0;

	if (size > 0 && data[0] == '<') {
		fuzz_load_check(fuzz_write("in.html", data, size));
		return 0;
	}
	html = malloc(sizeof(head) + size + sizeof(tail));
	if (!html)
		abort();
	memcpy(html, head, sizeof(head) - 1);
	n += sizeof(head) - 1;
	if (size)
		memcpy(html + n, data, size);
	n += size;
	memcpy(html + n, tail, sizeof(tail) - 1);
	n += sizeof(tail) - 1;
	fuzz_load_check(fuzz_write("in.html", html, n));
	free(html);
	return 0;
}
