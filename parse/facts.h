/* parse/facts.h: internal to parse/: the "trax: target ..." markers (the target's facts). */
#ifndef TRAX_PARSE_FACTS_H
#define TRAX_PARSE_FACTS_H

/*
 * `trax collect` writes the facts of the machine it captures on as trace markers at the start
 * (collect/facts.h has the format):
 *
 *   trax: target kernel=6.1.0 ncpus=6 cpus_possible=0-5 cpus_online=0-5
 *   trax: target cpu=0 online=1 capacity=446 cluster=1 freq_domain=0,3-5 freqs=450000,...
 *
 * Each key of a marker becomes a meta row: target.KEY for the machine's marker, cpu.N.KEY for
 * cpu=N's. Keys are [a-z0-9_]; a value runs to the next space.
 */

/* Called once per key of a marker: the meta key and its value (NUL-terminated; valid during
 * the call only). */
typedef void (*facts_set_fn)(void *ctx, const char *key, const char *value);

/* Parse a marker's text (len bytes, a trailing newline allowed). Returns 1 when it is a
 * well-formed target marker (set called for each of its keys), else 0 (set not called). */
int facts_parse(const char *buf, int len, facts_set_fn set, void *ctx);

#endif
