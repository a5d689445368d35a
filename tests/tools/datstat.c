/* tests/tools/datstat.c: records, lost-event marks and event counts of a trace.dat, by
 * libtracecmd alone (an independent count for the collect tests: no trax code is used). */
/*
 * usage: datstat TRACE.dat
 * Prints, one per line:
 *   cpu N records R missed M unknown U first F last L
 *       M: the sum of the counts of lost-event marks on CPU N, U: marks without a count,
 *       F, L: first and last record times (ns)
 *   event SYSTEM:NAME COUNT          (only event types with records)
 * Exit status 0, or 1 when the file cannot be read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>

struct cpu {
	unsigned long long records, missed, unknown, first, last;
};

struct st {
	struct cpu *cpu;
	int ncpus;
	unsigned long long *count;	/* by event id */
	int max_id;
	int err;
};

static int on_record(struct tracecmd_input *h, struct tep_record *r, int cpu, void *arg)
{
	struct st *s = arg;
	struct tep_handle *tep = tracecmd_get_tep(h);
	int id = tep_data_type(tep, r);
	struct cpu *c;

	cpu = r->cpu;
	if (cpu < 0 || cpu >= s->ncpus) {
		s->err = 1;
		return 1;
	}
	c = &s->cpu[cpu];
	if (!c->records)
		c->first = r->ts;
	if (r->ts < c->last)
		s->err = 2;	/* per-CPU times must not go back */
	c->last = r->ts;
	c->records++;
	if (r->missed_events > 0)
		c->missed += r->missed_events;
	else if (r->missed_events < 0)
		c->unknown++;
	if (id >= 0 && id <= s->max_id)
		s->count[id]++;
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	struct tep_handle *tep;
	struct tep_event **evs;
	struct st s = { 0 };

	if (argc != 2) {
		fprintf(stderr, "usage: datstat TRACE.dat\n");
		return 1;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "datstat: %s: cannot open\n", argv[1]);
		return 1;
	}
	tep = tracecmd_get_tep(h);
	s.ncpus = tep_get_cpus(tep);
	s.cpu = calloc(s.ncpus ? s.ncpus : 1, sizeof(*s.cpu));
	evs = tep_list_events(tep, TEP_EVENT_SORT_ID);
	for (int i = 0; evs && evs[i]; i++)
		if (evs[i]->id > s.max_id)
			s.max_id = evs[i]->id;
	s.count = calloc(s.max_id + 1, sizeof(*s.count));
	if (!s.cpu || !s.count)
		return 1;
	tracecmd_iterate_events(h, NULL, 0, on_record, &s);
	if (s.err) {
		fprintf(stderr, "datstat: %s: %s\n", argv[1], s.err == 2 ?
			"a CPU's record times go back" : "a record of an unknown CPU");
		return 1;
	}
	for (int c = 0; c < s.ncpus; c++)
		printf("cpu %d records %llu missed %llu unknown %llu first %llu last %llu\n", c,
		       s.cpu[c].records, s.cpu[c].missed, s.cpu[c].unknown, s.cpu[c].first,
		       s.cpu[c].last);
	for (int i = 0; evs && evs[i]; i++)
		if (s.count[evs[i]->id])
			printf("event %s:%s %llu\n", evs[i]->system, evs[i]->name,
			       s.count[evs[i]->id]);
	free(s.cpu);
	free(s.count);
	tracecmd_close(h);
	return 0;
}
