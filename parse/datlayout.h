/* parse/datlayout.h: internal to parse/: a trace.dat's declared layout against its size. */
#ifndef TRAX_PARSE_DATLAYOUT_H
#define TRAX_PARSE_DATLAYOUT_H

#include "util/error.h"

/*
 * Walk the sections a trace.dat (v6 or v7) declares -- headers, formats, kallsyms, printk
 * formats, saved command lines, options, and the offset and size of every CPU's data in every
 * buffer -- and check that each lies inside the file and that what libtracecmd and
 * libtraceevent parse in them holds what they assume: strings that end inside their option,
 * printk format lines they can split without reading outside their buffers, sane counts. v7
 * sections that are compressed are decompressed (with libzstd, which libtracecmd loads) and
 * checked the same way. libtracecmd maps CPU data without looking at the file's size, so a
 * file cut inside its CPU data would otherwise load short without a word, or fault.
 *
 * Returns 0 when the file passes, else a negative error with err filled: TRAX_E_FORMAT,
 * "PATH: truncated: ..." or "PATH: corrupt trace.dat: SECTION...: PROBLEM at byte N" (inside a
 * compressed section: "at byte N of the section at byte S (decompressed)"), TRAX_E_UNSUPPORTED
 * when compressed sections cannot be decompressed, TRAX_E_IO or TRAX_E_NOMEM.
 */
int dat_check_layout(const char *path, struct trax_error *err);

#endif
