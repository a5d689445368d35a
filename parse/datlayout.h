/* parse/datlayout.h: internal to parse/: a trace.dat's declared layout against its size. */
#ifndef TRAX_PARSE_DATLAYOUT_H
#define TRAX_PARSE_DATLAYOUT_H

#include "util/error.h"

/*
 * Walk the sections a trace.dat (v6 or v7) declares -- headers, formats, options, and the
 * offset and size of every CPU's data in every buffer -- and check that each lies inside the
 * file. libtracecmd maps CPU data without looking at the file's size, so a file cut inside
 * its CPU data would otherwise load short without a word, or fault.
 *
 * out->clock_size tells whether the file's trace-clock option is empty: libtracecmd then
 * parses heap bytes past its empty copy of it as the clock name (a read past a malloc(0)).
 *
 * Returns 0 when the layout fits the file (or cannot be checked: compressed option sections),
 * else a negative error with err filled: TRAX_E_FORMAT, "PATH: truncated: ..." or
 * "PATH: corrupt trace.dat: ...", or TRAX_E_IO.
 */
struct dat_layout {
	long long clock_size;	/* size of the trace-clock option; -1 when absent or unread */
};

int dat_check_layout(const char *path, struct dat_layout *out, struct trax_error *err);

#endif
