/* assert/output.c: verdicts as TAP 13 (kselftest dialect), JUnit XML, JSON and aligned text. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert/assert.h"
#include "assert/assert-local.h"
#include "assert/gate.h"
#include "util/strbuf.h"

static const char *value_text(const struct trax_result *r, char *buf, size_t len)
{
	if (!r->has_value)
		return "-";
	return trax_format_value(r->value, r->dim, r->rule->expect.unit, buf, len);
}

/* "[1.000000, 3.000000] s" relative to the trace start. */
static const char *window_text(const struct trax_result *r, char *buf, size_t len)
{
	if (!r->has_span) {
		snprintf(buf, len, "-");
		return buf;
	}
	snprintf(buf, len, "[%.6f, %.6f] s", (r->span.start - r->trace_start) / 1e9,
		 (r->span.end - r->trace_start) / 1e9);
	return buf;
}

/*
 * A result that regressed from the baseline has failed by then (trax_baseline_compare()): its
 * verdict, reason and the counts say so, and the writers below show them as they are. Where
 * the reason is the comparison (r->regression), the baseline line is not repeated.
 */

static int write_tap(const struct trax_verdicts *v, FILE *f)
{
	const char *trace = NULL;

	fprintf(f, "TAP version 13\n1..%d\n", v->n);
	fprintf(f, "# trax check: rules %s (sha256 %.16s)\n", v->rules_path ? v->rules_path : "?",
		v->rules_sha256 ? v->rules_sha256 : "?");
	for (int i = 0; i < v->n; i++) {
		const struct trax_result *r = &v->res[i];
		char val[64], win[64];

		if (!trace || strcmp(trace, r->trace)) {
			trace = r->trace;
			fprintf(f, "# trace: %s\n", trace);
		}
		switch (r->verdict) {
		case TRAX_PASS:
			fprintf(f, "ok %d %s\n", i + 1, r->name);
			break;
		case TRAX_FAIL:
			if (r->warn)
				fprintf(f, "not ok %d %s # TODO warn: %s\n", i + 1, r->name, r->reason);
			else
				fprintf(f, "not ok %d %s\n", i + 1, r->name);
			break;
		case TRAX_SKIP:
			fprintf(f, "ok %d %s # SKIP %s\n", i + 1, r->name, r->reason);
			break;
		case TRAX_ERROR:
			fprintf(f, "not ok %d %s # error: %s\n", i + 1, r->name, r->reason);
			break;
		case TRAX_XFAIL:
			fprintf(f, "ok %d %s # XFAIL %s\n", i + 1, r->name, r->reason);
			break;
		case TRAX_XPASS:
			fprintf(f, "ok %d %s # XPASS expected to fail, passed\n", i + 1, r->name);
			break;
		}
		if (r->cmp != TRAX_CMP_NONE)
			fprintf(f, "# %s: baseline: %s%s%s%s\n", r->name, trax_cmp_name(r->cmp),
				r->rule->warn && r->cmp == TRAX_CMP_REGRESSED ? " (warn)" : "",
				r->cmp_note ? ": " : "", r->cmp_note ? r->cmp_note : "");
		if (r->verdict == TRAX_SKIP)
			continue;
		fprintf(f, "# %s: %s %s (expect %s) in %s\n", r->name,
			trax_metric_name(r->rule->metric), value_text(r, val, sizeof(val)),
			r->rule->expect.text, window_text(r, win, sizeof(win)));
		if (r->verdict == TRAX_FAIL && !r->warn && !r->regression)
			fprintf(f, "# %s: %s\n", r->name, r->reason);
		if (r->note)
			fprintf(f, "# %s: note: %s\n", r->name, r->note);
	}
	if (v->compared) {
		for (int i = 0; i < v->nmissing; i++)
			fprintf(f, "# baseline: %s: in the baseline, absent from this run\n",
				v->missing[i]);
		if (v->baseline_note)
			fprintf(f, "# baseline: %s\n", v->baseline_note);
		fprintf(f, "# Baseline %s: regressed:%d improved:%d same:%d new:%d missing:%d "
			"not-comparable:%d warn-regressed:%d\n", v->baseline_path, v->regressed,
			v->improved, v->same, v->added, v->nmissing, v->not_comparable,
			v->regressed_warn);
	}
	fprintf(f, "# Totals: pass:%d fail:%d xfail:%d xpass:%d skip:%d error:%d\n",
		v->pass, v->fail + v->warn, v->xfail, v->xpass, v->skip, v->error);
	return 0;
}

static void xml_attr(FILE *f, const char *name, const char *value)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_xml(&sb, value ? value : "");
	fprintf(f, " %s=\"%s\"", name, sb.buf);
	strbuf_release(&sb);
}

static void xml_text(FILE *f, const char *value)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_xml(&sb, value ? value : "");
	fputs(sb.buf, f);
	strbuf_release(&sb);
}

static int write_junit(const struct trax_verdicts *v, FILE *f)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
	xml_attr(f, "name", "trax check");
	fprintf(f, " tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n", v->n, v->fail,
		v->error, v->skip);
	for (int i = 0; i < v->n;) {
		const char *trace = v->res[i].trace;
		int j, n = 0, fails = 0, errors = 0, skips = 0;

		for (j = i; j < v->n && !strcmp(v->res[j].trace, trace); j++) {
			n++;
			fails += v->res[j].verdict == TRAX_FAIL && !v->res[j].warn;
			errors += v->res[j].verdict == TRAX_ERROR;
			skips += v->res[j].verdict == TRAX_SKIP;
		}
		fprintf(f, "  <testsuite");
		xml_attr(f, "name", trace);
		fprintf(f, " tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"0\">\n",
			n, fails, errors, skips);
		fprintf(f, "    <properties>\n      <property name=\"rules\"");
		xml_attr(f, "value", v->rules_path);
		fprintf(f, "/>\n      <property name=\"rules_sha256\"");
		xml_attr(f, "value", v->rules_sha256);
		fprintf(f, "/>\n    </properties>\n");
		for (; i < j; i++) {
			const struct trax_result *r = &v->res[i];
			char val[64], win[64];
			struct strbuf out = STRBUF_INIT;

			fprintf(f, "    <testcase");
			xml_attr(f, "name", r->name);
			xml_attr(f, "classname", trax_metric_name(r->rule->metric));
			fprintf(f, " time=\"0\">\n");
			strbuf_addf(&out, "%s %s (expect %s) in %s", trax_metric_name(r->rule->metric),
				    value_text(r, val, sizeof(val)), r->rule->expect.text,
				    window_text(r, win, sizeof(win)));
			if (r->cmp != TRAX_CMP_NONE)
				strbuf_addf(&out, "; baseline: %s%s%s", trax_cmp_name(r->cmp),
					    r->cmp_note ? ": " : "",
					    r->cmp_note ? r->cmp_note : "");
			if (r->verdict == TRAX_FAIL && !r->warn) {
				fprintf(f, "      <failure");
				xml_attr(f, "message", r->reason);
				xml_attr(f, "type", r->regression ? "regression" : "fail");
				fprintf(f, ">");
				xml_text(f, out.buf);
				fprintf(f, "</failure>\n");
			} else if (r->verdict == TRAX_ERROR) {
				fprintf(f, "      <error");
				xml_attr(f, "message", r->reason);
				xml_attr(f, "type", "error");
				fprintf(f, "/>\n");
			} else if (r->verdict == TRAX_SKIP) {
				fprintf(f, "      <skipped");
				xml_attr(f, "message", r->reason);
				fprintf(f, "/>\n");
			}
			if (r->verdict != TRAX_SKIP) {
				/* a warn rule's regression: the baseline part says why */
				if (r->warn && r->regression)
					strbuf_adds(&out, "; warning (severity warn)");
				else if (r->warn || r->verdict == TRAX_XFAIL)
					strbuf_addf(&out, "; %s: %s",
						    r->warn ? "warning" : "known failure", r->reason);
				if (r->note)
					strbuf_addf(&out, "; note: %s", r->note);
				fprintf(f, "      <system-out>");
				xml_text(f, out.buf);
				fprintf(f, "</system-out>\n");
			}
			fprintf(f, "    </testcase>\n");
			strbuf_release(&out);
		}
		fprintf(f, "  </testsuite>\n");
	}
	fprintf(f, "</testsuites>\n");
	return 0;
}

const char *assert_dim_unit(enum trax_dim d)
{
	switch (d) {
	case TRAX_DIM_TIME: return "ns";
	case TRAX_DIM_PERCENT: return "%";
	case TRAX_DIM_BYTES: return "B";
	case TRAX_DIM_FREQ: return "Hz";
	case TRAX_DIM_TEMP: return "mC";
	case TRAX_DIM_CPU: return "cpu";
	default: return "";
	}
}

static int write_json(const struct trax_verdicts *v, FILE *f)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "{\n  \"trax_version\": \"%s\",\n  \"rules\": ", TRAX_VERSION);
	strbuf_add_json_or_null(&sb, v->rules_path);
	strbuf_adds(&sb, ",\n  \"rules_sha256\": ");
	strbuf_add_json_or_null(&sb, v->rules_sha256);
	strbuf_adds(&sb, ",\n  \"results\": [");
	for (int i = 0; i < v->n; i++) {
		const struct trax_result *r = &v->res[i];
		char val[64];

		strbuf_adds(&sb, i ? ",\n    {" : "\n    {");
		strbuf_adds(&sb, "\"name\": ");
		strbuf_add_json_or_null(&sb, r->name);
		strbuf_adds(&sb, ", \"rule\": ");
		strbuf_add_json_or_null(&sb, r->rule->id);
		strbuf_adds(&sb, ", \"metric\": ");
		strbuf_add_json_or_null(&sb, trax_metric_name(r->rule->metric));
		strbuf_adds(&sb, ", \"trace\": ");
		strbuf_add_json_or_null(&sb, r->trace);
		strbuf_adds(&sb, ", \"task\": ");
		strbuf_add_json_or_null(&sb, r->task);
		strbuf_adds(&sb, ", \"verdict\": ");
		strbuf_add_json_or_null(&sb, trax_verdict_name(r->verdict));
		strbuf_adds(&sb, ", \"rule_verdict\": ");
		strbuf_add_json_or_null(&sb, trax_verdict_name(r->regression ? r->rule_verdict :
								r->verdict));
		strbuf_addf(&sb, ", \"severity\": \"%s\"", r->rule->warn ? "warn" : "error");
		strbuf_adds(&sb, ", \"value\": ");
		if (r->has_value)
			strbuf_add_json_num(&sb, r->value);
		else
			strbuf_adds(&sb, "null");
		strbuf_adds(&sb, ", \"unit\": ");
		strbuf_add_json_or_null(&sb, assert_dim_unit(r->dim));
		strbuf_adds(&sb, ", \"display\": ");
		strbuf_add_json_or_null(&sb, r->has_value ? value_text(r, val, sizeof(val)) : NULL);
		strbuf_adds(&sb, ", \"expect\": ");
		strbuf_add_json_or_null(&sb, r->rule->expect.text);
		if (r->has_span) {
			strbuf_adds(&sb, ", \"window\": {\"start_ns\": ");
			strbuf_add_json_num(&sb, r->span.start);
			strbuf_adds(&sb, ", \"end_ns\": ");
			strbuf_add_json_num(&sb, r->span.end);
			strbuf_adds(&sb, ", \"start_rel_s\": ");
			strbuf_add_json_num(&sb, (r->span.start - r->trace_start) / 1e9);
			strbuf_adds(&sb, ", \"end_rel_s\": ");
			strbuf_add_json_num(&sb, (r->span.end - r->trace_start) / 1e9);
			strbuf_adds(&sb, "}");
		} else {
			strbuf_adds(&sb, ", \"window\": null");
		}
		if (r->has_value && (r->rule->metric == TRAX_METRIC_START_TIME ||
				     r->rule->metric == TRAX_METRIC_END_TIME)) {
			strbuf_adds(&sb, ", \"absolute_ns\": ");
			strbuf_add_json_num(&sb, r->value + r->trace_start);
		}
		strbuf_adds(&sb, ", \"reason\": ");
		strbuf_add_json_or_null(&sb, r->reason);
		strbuf_adds(&sb, ", \"note\": ");
		strbuf_add_json_or_null(&sb, r->note);
		if (r->cmp != TRAX_CMP_NONE) {
			strbuf_adds(&sb, ", \"baseline\": {\"comparison\": ");
			strbuf_add_json_or_null(&sb, trax_cmp_name(r->cmp));
			strbuf_adds(&sb, ", \"verdict\": ");
			strbuf_add_json_or_null(&sb, r->cmp == TRAX_CMP_NEW ? NULL :
				 trax_verdict_name(r->base_verdict));
			strbuf_adds(&sb, ", \"value\": ");
			if (r->cmp != TRAX_CMP_NEW && r->base_has_value)
				strbuf_add_json_num(&sb, r->base_value);
			else
				strbuf_adds(&sb, "null");
			strbuf_adds(&sb, ", \"delta\": ");
			if (r->cmp != TRAX_CMP_NEW && r->base_has_value && r->has_value)
				strbuf_add_json_num(&sb, r->value - r->base_value);
			else
				strbuf_adds(&sb, "null");
			strbuf_adds(&sb, ", \"note\": ");
			strbuf_add_json_or_null(&sb, r->cmp_note);
			strbuf_adds(&sb, "}");
		}
		strbuf_adds(&sb, "}");
	}
	strbuf_adds(&sb, "\n  ],");
	if (v->compared) {
		strbuf_adds(&sb, "\n  \"baseline\": {\"path\": ");
		strbuf_add_json_or_null(&sb, v->baseline_path);
		strbuf_addf(&sb, ", \"regressed\": %d, \"regressed_warn\": %d, \"improved\": %d, "
			    "\"same\": %d, \"new\": %d, \"not_comparable\": %d, \"missing\": [",
			    v->regressed, v->regressed_warn, v->improved, v->same, v->added,
			    v->not_comparable);
		for (int i = 0; i < v->nmissing; i++) {
			strbuf_adds(&sb, i ? ", " : "");
			strbuf_add_json_or_null(&sb, v->missing[i]);
		}
		strbuf_adds(&sb, "], \"note\": ");
		strbuf_add_json_or_null(&sb, v->baseline_note);
		strbuf_adds(&sb, "},");
	}
	strbuf_addf(&sb, "\n  \"totals\": {\"pass\": %d, \"fail\": %d, \"warn\": %d, "
		    "\"xfail\": %d, \"xpass\": %d, \"skip\": %d, \"error\": %d},\n"
		    "  \"exit_status\": %d\n}\n", v->pass, v->fail, v->warn, v->xfail, v->xpass,
		    v->skip, v->error, trax_verdicts_exit_status(v));
	fwrite(sb.buf, 1, sb.len, f);
	strbuf_release(&sb);
	return 0;
}

static int write_text(const struct trax_verdicts *v, FILE *f)
{
	int wn = 4, wv = 5, we = 6;
	const char *trace = NULL;

	for (int i = 0; i < v->n; i++) {
		char val[64];
		int l;

		l = strlen(v->res[i].name);
		wn = l > wn ? l : wn;
		l = strlen(value_text(&v->res[i], val, sizeof(val)));
		wv = l > wv ? l : wv;
		l = strlen(v->res[i].rule->expect.text);
		we = l > we ? l : we;
	}
	for (int i = 0; i < v->n; i++) {
		const struct trax_result *r = &v->res[i];
		const char *verdict = r->warn ? "WARN" : r->verdict == TRAX_PASS ? "PASS" :
			r->verdict == TRAX_FAIL ? "FAIL" : r->verdict == TRAX_SKIP ? "SKIP" :
			r->verdict == TRAX_ERROR ? "ERROR" : r->verdict == TRAX_XFAIL ? "XFAIL" :
			"XPASS";
		char val[64];

		if (!trace || strcmp(trace, r->trace)) {
			trace = r->trace;
			fprintf(f, "%s%s\n", i ? "\n" : "", trace);
		}
		fprintf(f, "  %-5s  %-*s  %*s  %-*s", verdict, wn, r->name, wv,
			value_text(r, val, sizeof(val)), we, r->rule->expect.text);
		if (r->reason && r->verdict != TRAX_PASS)
			fprintf(f, "  %s", r->reason);
		if (r->cmp != TRAX_CMP_NONE && !r->regression)
			fprintf(f, "  [%s%s%s]", trax_cmp_name(r->cmp), r->cmp_note ? ": " : "",
				r->cmp_note ? r->cmp_note : "");
		if (r->note)
			fprintf(f, "  (note: %s)", r->note);
		fprintf(f, "\n");
	}
	if (v->compared) {
		fprintf(f, "\nbaseline %s: %d regressed, %d improved, %d same, %d new, %d missing, "
			"%d not comparable", v->baseline_path, v->regressed + v->regressed_warn,
			v->improved, v->same, v->added, v->nmissing, v->not_comparable);
		if (v->regressed_warn)
			fprintf(f, " (%d of the regressions are warnings)", v->regressed_warn);
		fprintf(f, "\n");
		for (int i = 0; i < v->nmissing; i++)
			fprintf(f, "  missing: %s (in the baseline, absent from this run)\n",
				v->missing[i]);
		if (v->baseline_note)
			fprintf(f, "  note: %s\n", v->baseline_note);
	}
	fprintf(f, "\n%d passed, %d failed, %d warned, %d skipped, %d errors, %d xfail, %d xpass\n",
		v->pass, v->fail, v->warn, v->skip, v->error, v->xfail, v->xpass);
	return 0;
}

int trax_verdicts_write(const struct trax_verdicts *v, enum trax_out_format fmt, FILE *out)
{
	int ret;

	switch (fmt) {
	case TRAX_OUT_TAP: ret = write_tap(v, out); break;
	case TRAX_OUT_JUNIT: ret = write_junit(v, out); break;
	case TRAX_OUT_JSON: ret = write_json(v, out); break;
	default: ret = write_text(v, out); break;
	}
	if (fflush(out) || ferror(out))
		return -1;
	return ret;
}
