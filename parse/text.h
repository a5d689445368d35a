/* parse/text.h: internal to parse/: ftrace text recognition and line parsing. */
#ifndef TRAX_PARSE_TEXT_H
#define TRAX_PARSE_TEXT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Whether the start of a file (buf, n bytes, NUL-terminated) reads as ftrace text: a tracefs
 * header ("# tracer:"), a `trace-cmd report` header ("cpus=N", "version = N"), or an event line.
 */
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
	const char *event;	/* event name (no colon); for an alias, the static name of the
				 * event it stands for ("0" of old Android kernels:
				 * tracing_mark_write) */
	int event_len;
	const char *payload;	/* after "event: " up to the end of line, trailing blanks cut */
	int payload_len;
	const char *buffer;	/* instance name prefix of `trace-cmd report` ("name:"), or NULL */
	int buffer_len;
};

/*
 * Split one line (len bytes, no newline). Returns 1 for an event line, 0 for a line that is not
 * an event (header, comment, blank), -1 for a line that looks like an event (a "[CPU]" column
 * and a timestamp) but is malformed. On -1, the fields found before the fault are filled.
 */
int text_parse_line(const char *line, size_t len, struct text_line *out);

/*
 * A lost-events line: "CPU:N [LOST M EVENTS]" (tracefs), "CPU:N [M EVENTS DROPPED]" and
 * "CPU:N [EVENTS DROPPED]" (`trace-cmd report`, optionally after an instance prefix), and
 * tracefs's "##### CPU N buffer started ####" (printed after an overrun where a CPU's surviving
 * records begin: its older ones were overwritten; count unknown).
 */
struct text_lost {
	int cpu;
	int64_t count;		/* -1: unknown */
	const char *buffer;	/* instance prefix or NULL */
	int buffer_len;
};

/* Returns 1 and fills out for a lost-events line, else 0. */
int text_parse_lost(const char *line, size_t len, struct text_lost *out);

/* One named value of an event payload; pointers into the payload or static strings. */
struct text_kv {
	const char *key;
	int key_len;
	const char *val;
	int val_len;
	unsigned flags;		/* TEXT_KV_* */
};

#define TEXT_KV_PLUGIN_STATE	1u	/* prev_state letters of libtraceevent's sched plugin */
#define TEXT_KV_MAX		64

/*
 * Split a payload of key=value pairs. A value runs to the next blank-separated "key=" (so it
 * may hold blanks and '='), a " ==> " separator, or the end; "[FAILED TO PARSE]" is skipped.
 * Text before the first key becomes the pair "text". tail_key (may be NULL) names a key whose
 * value runs to the end of the payload, as does the value in the last of max slots (nothing
 * is cut); colon_keys (NULL-terminated, may be NULL) are keys also written "key:value".
 * Returns the number of pairs (0: no key=value pair at all).
 */
int text_split_kv(const char *p, int len, struct text_kv *kv, int max, const char *tail_key,
		  const char *const *colon_keys);

/*
 * Split an event's payload by the layout its event prints with: the sched plugin forms of
 * `trace-cmd report` (sched_switch "a:1 [120] S ==> b:2 [120]", sched_wakeup "a:1 [120] CPU:001"),
 * the ftrace messages (print "SYM: msg", tracefs "tracing_mark_write: msg", bprint, bputs), and
 * key=value pairs otherwise. Returns the number of pairs (0: nothing parsable).
 */
int text_split_payload(const char *event, int event_len, const char *payload, int len,
		       struct text_kv *kv, int max);

/*
 * Parse an integer value: decimal with sign, "0x" hex, an optional " [unit]" annotation after it
 * ("7778999 [ns]", "1 [action=TIMER]"). Unsigned 64-bit values above INT64_MAX keep their bit
 * pattern. Returns 1 with *out set, or 0 when the text is not an integer.
 */
int text_parse_int(const char *v, int len, int64_t *out);

/*
 * A sched_switch prev_state given as letters, as an integer. plugin 0: the kernel's letters, as
 * the integer of numbering (LD_STATE_414: R=0 S=1 D=2 T=4 t=8 X=16 Z=32 P=64 I=128, '+' = 256;
 * LD_STATE_PRE414: S=1 D=2 T=4 t=8 Z=16 X=32 x=64 K=128 W=256 P=512 N=1024, '+' = preempt);
 * a letter the numbering has not takes its nearest (4.14+: x is X, K and W are dropped, D|N is
 * I; before 4.14: I is D|N). plugin 1: the letters of libtraceevent's sched_switch plugin
 * ("SDTtZXxW" for bits 0-7 of the raw value, 'R' for none): the raw bits, whatever the
 * numbering. Returns 1 with *out set, 0 when the text is not a state.
 */
int text_state_value(const char *s, int len, int plugin, int numbering, int64_t preempt,
		     int64_t *out);

#endif
