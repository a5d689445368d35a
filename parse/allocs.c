/* parse/allocs.c: ION and dma-heap allocations and heap totals, GPU memory. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse/android-local.h"
#include "util/grow.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- rows ---- */

/*
 * A row of alloc (doc/db.md): an attempt at ts (lasting to end when has_dur); ok 1, 0, or -1
 * (NULL: it never ended); heap, client NULL, !has_*, utid < 0: NULL.
 */
struct alloc_rec {
	uint64_t ts, end;
	int has_dur;
	const char *source, *heap, *client;
	int has_len, ok, has_err, fallback, has_total;
	int64_t len, err, total;
	int utid, buffer;
};

static void alloc_write(struct android *a, const struct alloc_rec *r)
{
	dbw_row_begin(a->w, a->alloc_stmt);
	dbw_int(a->w, (int64_t)r->ts);
	put_opt_int(a->w, r->has_dur, (int64_t)(r->end >= r->ts ? r->end - r->ts : 0));
	dbw_text(a->w, r->source, -1);
	put_opt_text(a->w, r->heap, -1);
	put_opt_text(a->w, r->client, -1);
	put_opt_int(a->w, r->has_len, r->len);
	put_opt_int(a->w, r->ok >= 0, r->ok);
	put_opt_int(a->w, r->has_err, r->err);
	dbw_int(a->w, r->fallback);
	put_opt_int(a->w, r->has_total, r->total);
	put_opt_int(a->w, r->utid >= 0, r->utid);
	dbw_int(a->w, r->buffer);
	dbw_row_end(a->w);
	a->rows++;
}

/* ---- events ---- */

static void ion_clear(struct thread_state *st)
{
	free(st->ion_client);
	free(st->ion_heap);
	st->ion_client = st->ion_heap = NULL;
	st->ion_open = st->ion_done = 0;
}

/* An ended attempt with no fallback after it: a success. */
static void ion_flush(struct android *a, struct thread_state *st, int utid, int buffer)
{
	if (st->ion_done)
		alloc_write(a, &(struct alloc_rec){ .ts = st->ion_ts, .has_dur = 1,
			.end = st->ion_end_ts, .source = "ion", .heap = st->ion_heap,
			.client = st->ion_client, .has_len = 1, .len = st->ion_len, .ok = 1,
			.utid = utid, .buffer = buffer });
	ion_clear(st);
}

static void on_ion(struct android *a, struct ld_type *t, uint64_t ts, int utid, int buffer,
		   const struct ld_val *v)
{
	struct thread_state *st = tstate(a, utid, buffer);
	char *client = vname(t, v, ION_CLIENT), *heap = vname(t, v, ION_HEAP);
	int64_t len = vint(t, v, ION_LEN, 0), err = errno_value(vint(t, v, ION_ERROR, 0));
	int has_err = vhas(t, v, ION_ERROR);

	if (!st)
		goto out;
	switch (t->role) {
	case ROLE_ION_ALLOC_START:
		ion_flush(a, st, utid, buffer);
		st->ion_open = 1;
		st->ion_ts = ts;
		st->ion_client = client;
		st->ion_heap = heap;
		st->ion_len = len;
		client = heap = NULL;
		break;
	case ROLE_ION_ALLOC_END:
		if (!st->ion_open) {
			ion_flush(a, st, utid, buffer);
			anomaly(a, AN_ALLOC_UNMATCHED_END, ts, utid, buffer, "ion_alloc_buffer_end "
				"heap %s len %lld without a start", heap ? heap : "?", (long long)len);
			alloc_write(a, &(struct alloc_rec){ .ts = ts, .source = "ion",
				.heap = heap, .client = client, .has_len = 1, .len = len, .ok = 1,
				.utid = utid, .buffer = buffer });
			break;
		}
		st->ion_open = 0;
		st->ion_done = 1;
		st->ion_end_ts = ts;
		break;
	case ROLE_ION_ALLOC_FALLBACK:
		if (st->ion_done) {
			alloc_write(a, &(struct alloc_rec){ .ts = st->ion_ts, .has_dur = 1,
				.end = st->ion_end_ts, .source = "ion", .heap = st->ion_heap,
				.client = st->ion_client, .has_len = 1, .len = st->ion_len,
				.has_err = has_err, .err = err, .fallback = 1, .utid = utid,
				.buffer = buffer });
			ion_clear(st);
		} else {
			ion_flush(a, st, utid, buffer);
			anomaly(a, AN_ALLOC_UNMATCHED_FALLBACK, ts, utid, buffer, "ion_alloc_buffer_"
				"fallback heap %s len %lld after no attempt", heap ? heap : "?",
				(long long)len);
			alloc_write(a, &(struct alloc_rec){ .ts = ts, .source = "ion",
				.heap = heap, .client = client, .has_len = 1, .len = len,
				.has_err = has_err, .err = err, .fallback = 1, .utid = utid,
				.buffer = buffer });
		}
		break;
	case ROLE_ION_ALLOC_FAIL:
		if (st->ion_open) {
			/* kernels that end a failed attempt with the fail event itself */
			alloc_write(a, &(struct alloc_rec){ .ts = st->ion_ts, .has_dur = 1,
				.end = ts, .source = "ion_fail", .heap = heap, .client = client,
				.has_len = 1, .len = len, .has_err = has_err, .err = err, .utid = utid,
				.buffer = buffer });
			ion_clear(st);
		} else {
			ion_flush(a, st, utid, buffer);
			alloc_write(a, &(struct alloc_rec){ .ts = ts, .source = "ion_fail",
				.heap = heap, .client = client, .has_len = 1, .len = len,
				.has_err = has_err, .err = err, .utid = utid, .buffer = buffer });
		}
		break;
	default:
		break;
	}
out:
	free(client);
	free(heap);
}

static void on_heap_stat(struct android *a, struct ld_type *t, uint64_t ts, int utid,
			 int buffer, const struct ld_val *v)
{
	const char *source = t->role == ROLE_ION_HEAP_GROW ? "ion_heap_grow" :
		t->role == ROLE_ION_HEAP_SHRINK ? "ion_heap_shrink" :
		t->role == ROLE_ION_STAT ? "ion_stat" : "dma_heap_stat";
	char *heap = NULL;
	const char *comm = derive_thread_comm(a->d, utid);
	int64_t len = vint(t, v, HS_LEN, 0), total = vint(t, v, HS_TOTAL, 0);
	int has_total = vhas(t, v, HS_TOTAL), track;

	if (!vhas(t, v, HS_LEN)) {
		anomaly(a, AN_EVENT_MISSING_FIELD, ts, utid, buffer, "%s without len", t->name);
		return;
	}
	if (t->role == ROLE_ION_HEAP_GROW || t->role == ROLE_ION_HEAP_SHRINK) {
		heap = vname(t, v, HS_ID);
		if (t->role == ROLE_ION_HEAP_SHRINK)
			len = -len;
		comm = NULL;
	}
	alloc_write(a, &(struct alloc_rec){ .ts = ts, .source = source, .heap = heap,
		.client = comm, .has_len = 1, .len = len, .ok = 1, .has_total = has_total,
		.total = total, .utid = utid, .buffer = buffer });
	if (has_total) {
		if (heap)
			track = derive_track(a->d, "ion_heap_total", "memory", -1, -1, heap, "B",
					     buffer);
		else
			track = derive_track(a->d, t->role == ROLE_ION_STAT ? "ion_total" :
					     "dma_heap_total", "memory", -1, -1, NULL, "B", buffer);
		derive_counter(a->d, ts, track, (double)total);
	}
	free(heap);
}

/* The memory events (parse/events.h: by EV_ALLOCS). */
void allocs_event(struct android *a, struct ld_type *t, uint64_t ts, int utid, int buffer,
	           const struct ld_val *v)
{
	switch (t->role) {
	case ROLE_ION_ALLOC_START:
	case ROLE_ION_ALLOC_END:
	case ROLE_ION_ALLOC_FAIL:
	case ROLE_ION_ALLOC_FALLBACK:
		on_ion(a, t, ts, utid, buffer, v);
		break;
	case ROLE_ION_HEAP_GROW:
	case ROLE_ION_HEAP_SHRINK:
	case ROLE_ION_STAT:
	case ROLE_DMA_HEAP_STAT:
		on_heap_stat(a, t, ts, utid, buffer, v);
		break;
	case ROLE_GPU_MEM_TOTAL: {
		int64_t gpid = vint(t, v, GM_PID, -1);
		char zone[32];
		int track;

		if (gpid < 0 || !vhas(t, v, GM_SIZE)) {
			anomaly(a, AN_EVENT_MISSING_FIELD, ts, utid, buffer, "gpu_mem_total without "
				"pid or size");
			break;
		}
		snprintf(zone, sizeof(zone), "gpu%lld", (long long)vint(t, v, GM_GPU_ID, 0));
		track = derive_track(a->d, "gpu_mem_total", "gpu", -1,
				     gpid ? derive_thread(a->d, (int)gpid, ts) : -1, zone, "B",
				     buffer);
		derive_counter(a->d, ts, track, (double)vint(t, v, GM_SIZE, 0));
		break;
	}
	default:
		break;
	}
}

/* An attempt still open at the end of the trace: an attempt that never ended. */
void allocs_thread_end(struct android *a, struct thread_state *st, int utid, int buffer)
{
	if (st->ion_open) {
		anomaly(a, AN_ALLOC_UNTERMINATED, st->ion_ts, utid, buffer, "ion allocation on "
			"heap %s never ended", st->ion_heap ? st->ion_heap : "?");
		alloc_write(a, &(struct alloc_rec){ .ts = st->ion_ts, .source = "ion",
			.heap = st->ion_heap, .client = st->ion_client, .has_len = 1,
			.len = st->ion_len, .ok = -1, .utid = utid, .buffer = buffer });
		ion_clear(st);
	}
	ion_flush(a, st, utid, buffer);
}
