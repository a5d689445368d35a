/* parse/text.h: internal to parse/: ftrace text recognition and line parsing. */
#ifndef TRAX_PARSE_TEXT_H
#define TRAX_PARSE_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Whether the start of a file (buf, n bytes, NUL-terminated) reads as ftrace text. */
int text_looks_like_ftrace(const char *buf, size_t n);

/* One ftrace text line split into its parts; pointers into the line, not NUL-terminated. */
struct text_line {
	const char *comm;
	int comm_len;
	int pid;
	int tgid;		/* -1: no TGID column or "-----" */
	int cpu;
	const char *flags;	/* latency flags ("d..2"), NULL when absent */
	int flags_len;
	uint64_t ts;		/* ns */
	int ts_digits;		/* digits after the decimal point: 6 (us) or 9 (ns) */
	const char *event;	/* event name (no colon) */
	int event_len;
	const char *payload;	/* after "event: " up to the end of line */
	int payload_len;
	const char *buffer;	/* instance name prefix of `trace-cmd report` ("name:"), or NULL */
	int buffer_len;
};

/*
 * Split one line (len bytes, no newline). Returns 1 for an event line, 0 for a line that is not
 * an event (header, comment, blank), -1 for a line that looks like an event but is malformed.
 */
int text_parse_line(const char *line, size_t len, struct text_line *out);

#endif
