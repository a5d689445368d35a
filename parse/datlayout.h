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
 * Returns 0 when the layout fits the file (or cannot be checked: compressed option sections),
 * else a negative error with err filled: TRAX_E_FORMAT, "PATH: truncated: ..." or
 * "PATH: corrupt trace.dat: ...", or TRAX_E_IO.
 */
int dat_check_layout(const char *path, struct trax_error *err);

#endif
