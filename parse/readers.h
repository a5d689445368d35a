/*
 * parse/readers.h: the trace formats trax reads, one row each: the one place a format is
 * listed. Detection (detect.c) tries the rows in this order; `trax load` (load.c) runs the
 * matching row's reader.
 *
 * READER(ID, name, sniff, read, text)
 *   ID     the enum constant TRAX_FMT_<ID> (parse/parse.h)
 *   name   the format's name in messages and in meta "format"
 *   sniff  int sniff(const char *head, size_t n): whether the file's first n bytes (up to
 *          64 KiB, NUL-terminated) are this format; from content, never from the name
 *   read   int read(struct loader *L, const char *path, struct trax_error *err): the whole
 *          file into the sink (parse/sink.h); 0 or a negative error with err filled
 *   text   1: a text format, tried only when the head holds no NUL byte (a binary head
 *          that no binary row claims is "unrecognized binary content")
 *
 * Adding a format: one row here and its reader file (parse/NAME.c, built like every .c of
 * parse/); doc/extending.md says how. The includer defines READER; this file undefines it.
 */
READER(DAT, "trace.dat", dat_sniff, dat_read, 0)
READER(SYSTRACE, "systrace", systrace_sniff, systrace_read, 0)
READER(PERFETTO, "perfetto", perfetto_sniff, perfetto_read, 0)
READER(TEXT, "text", text_looks_like_ftrace, text_read, 1)
#undef READER
