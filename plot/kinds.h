/*
 * plot/kinds.h: the chart kinds, one row each: the one place a kind is listed.
 *
 * CH_KIND(ID, name, draw, options, events, help)
 *   ID       the enum constant TRAX_PLOT_<ID> (plot/plot.h)
 *   name     what `trax plot KIND` and the reports call it
 *   draw     its drawing function, int draw(struct chart *c), in its own file of plot/
 *   options  the TRAX_PLOT_OPT_* it takes; `trax plot` refuses the others for this kind
 *   events   what it needs loaded: the events (comma list, names of the event catalogue,
 *            parse/catalogue.c) whose derived tables it draws
 *   help     its lines of `trax plot --help`, name column included
 *
 * Adding a kind: one row here and its drawing function in a new plot/NAME.c (the Makefile
 * builds every .c of plot/); doc/extending.md says how. The includer defines CH_KIND; this
 * file undefines it.
 */
CH_KIND(TIMELINE, "timeline", ch_timeline,
	TRAX_PLOT_OPT_TASK,
	"sched_switch",
	"  timeline    one lane per CPU, task slices coloured by comm, idle blank; trace markers\n"
	"              and kills overlaid\n")
CH_KIND(COUNTERS, "counters", ch_counters,
	TRAX_PLOT_OPT_TRACK,
	"cpu_frequency,thermal_temperature",
	"  counters    step lines of counter tracks (cpu_frequency per CPU, temperature per zone)\n")
CH_KIND(RESIDENCY, "residency", ch_residency,
	TRAX_PLOT_OPT_TASK | TRAX_PLOT_OPT_GROUP,
	"sched_switch",
	"  residency   stacked bars: each task's share of each CPU (or CPU group) in the window\n")
CH_KIND(HISTOGRAM, "histogram", ch_histogram,
	TRAX_PLOT_OPT_TASK | TRAX_PLOT_OPT_OF | TRAX_PLOT_OPT_BINS | TRAX_PLOT_OPT_LOG,
	"sched_switch,sched_waking,sched_wakeup",
	"  histogram   histogram of durations (slice lengths by default)\n")
CH_KIND(CDF, "cdf", ch_cdf,
	TRAX_PLOT_OPT_TASK | TRAX_PLOT_OPT_OF | TRAX_PLOT_OPT_LOG,
	"sched_switch,sched_waking,sched_wakeup",
	"  cdf         cumulative distribution of durations, with p50, p90 and p99\n")
#undef CH_KIND
