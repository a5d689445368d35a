/* parse/text.c: ftrace text input (placeholder until the text reader lands). */
#include <string.h>

#include "parse/loader.h"
#include "parse/text.h"

int text_looks_like_ftrace(const char *buf, size_t n)
{
	return strstr(buf, "# tracer:") != NULL || !strncmp(buf, "cpus=", 5) ||
	       !strncmp(buf, "version = ", 10);
}

int text_parse_line(const char *line, size_t len, struct text_line *out)
{
	return 0;
}

int text_read(struct loader *L, const char *path, struct trax_error *err)
{
	return trax_error_set(err, TRAX_E_UNSUPPORTED, "%s: text traces are not supported yet", path);
}
