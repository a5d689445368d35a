/* tests/tools/fmt-check.c: parse event format files with libtraceevent, report what fails. */
/*
 * usage: fmt-check LONG_SIZE FORMAT...
 *
 * Each FORMAT (an events/SYSTEM/NAME/format file) is parsed with tep_parse_event() into one
 * tep of that long size. Prints "ok N" with the count parsed, and "fail PATH: error" for each
 * format whose fields libtraceevent cannot read; exits 1 when any fails. A print format that
 * libtraceevent cannot interpret is a warning ("warn PATH: ...", exit 0): its fields still read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

int main(int argc, char **argv)
{
	struct tep_handle *tep;
	int ok = 0, bad = 0, warn = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: fmt-check LONG_SIZE FORMAT...\n");
		return 2;
	}
	tep = tep_alloc();
	tep_set_long_size(tep, atoi(argv[1]));
	tep_set_loglevel(TEP_LOG_NONE);
	for (int i = 2; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");
		char *buf = NULL, sys[256], *p;
		size_t cap = 0, n = 0, r;
		enum tep_errno e;
		char msg[256];

		if (!f) {
			printf("fail %s: cannot open\n", argv[i]);
			bad++;
			continue;
		}
		do {
			if (n + 4096 > cap) {
				cap = cap ? cap * 2 : 8192;
				buf = realloc(buf, cap);
				if (!buf)
					abort();
			}
			r = fread(buf + n, 1, 4096, f);
			n += r;
		} while (r);
		fclose(f);
		/* the system is the folder above NAME: .../events/SYSTEM/NAME/format */
		snprintf(sys, sizeof(sys), "%s", argv[i]);
		for (int k = 0; k < 2 && (p = strrchr(sys, '/')); k++)
			*p = '\0';
		p = strrchr(sys, '/');
		e = tep_parse_event(tep, buf, n, p ? p + 1 : sys);
		if (e == 0) {
			ok++;
		} else if (e == TEP_ERRNO__READ_PRINT_FAILED) {
			tep_strerror(tep, e, msg, sizeof(msg));
			printf("warn %s: %s\n", argv[i], msg);
			warn++;
			ok++;
		} else {
			tep_strerror(tep, e, msg, sizeof(msg));
			printf("fail %s: %s\n", argv[i], msg);
			bad++;
		}
		free(buf);
	}
	printf("ok %d\nwarn %d\nfail %d\n", ok, warn, bad);
	fflush(stdout);	/* before any leak report of the sanitizers ends the process */
	tep_free(tep);
	return bad ? 1 : 0;
}
