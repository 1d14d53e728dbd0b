/* test_state.c — what a handle's counts, places and answers say:
 * da_current between generations, one meaning of side and orphan traces
 * on every sample, exits with where their trace starts and where they
 * resume (against the dump's lines), and what every call does after an
 * error, out of order, or with no bytes at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "dumpanalyze.h"
#include "samples.h"

#define PENLIGHT "samples/penlight-x.dump"

/* The dump line starting with prefix (the first, or the last before the
 * line starting with `before`), and its 1-based number. */
static const char *dump_line(const char *text, const char *prefix, const char *before,
                             unsigned *no)
{
	const char *found = NULL, *p = text;
	unsigned n = 1;
	*no = 0;
	while (*p) {
		if (before && strncmp(p, before, strlen(before)) == 0)
			break;
		if (strncmp(p, prefix, strlen(prefix)) == 0) {
			found = p;
			*no = n;
			if (!before)
				break;
		}
		const char *nl = strchr(p, '\n');
		if (!nl)
			break;
		p = nl + 1;
		n++;
	}
	assert_non_null(found);
	return found;
}

/* "FILE:LINE" at the end of a start header line into file and line. */
static void start_loc(const char *l, char *file, size_t nfile, int *line)
{
	const char *end = strchr(l, '\n'), *colon = end;
	while (colon > l && *colon != ':')
		colon--;
	const char *sp = colon;
	while (sp > l && sp[-1] != ' ')
		sp--;
	snprintf(file, nfile, "%.*s", (int)(colon - sp), sp);
	*line = atoi(colon + 1);
}

/* ---- da_current, kinds --------------------------------------------- */

struct watch {
	da_dump *d;
	unsigned begins, ends, traces;
	int bad;
};

static int watch_begin(void *data, const struct da_gen *g)
{
	struct watch *w = data;
	static const struct da_counts zero;
	w->begins++;
	w->bad += memcmp(da_current(w->d), &zero, sizeof(zero)) != 0;
	w->bad += g->n.traces != 0;
	return 0;
}

static int watch_trace(void *data, const struct da_trace *t)
{
	struct watch *w = data;
	w->traces++;
	w->bad += da_current(w->d)->traces != t->seq + 1;
	return 0;
}

static int watch_end(void *data, const struct da_gen *g)
{
	struct watch *w = data;
	w->ends++;
	w->bad += memcmp(da_current(w->d), &g->n, sizeof(g->n)) != 0;
	return 0;
}

static void test_current_is_the_generation_being_read_and_zero_between(void **state)
{
	(void)state;
	struct watch w = { 0 };
	struct da_sink sink = DA_SINK(.gen_begin = watch_begin, .trace = watch_trace,
	                              .gen_end = watch_end);
	struct da_options o = DA_OPTIONS(.sink = &sink, .sink_data = &w);
	w.d = da_open_path("samples/flush.dump", &o, NULL);
	static const struct da_counts zero;
	assert_memory_equal(da_current(w.d), &zero, sizeof(zero));
	assert_int_equal(da_read(w.d), DA_OK);
	assert_int_equal(w.begins, 4);
	assert_int_equal(w.ends, 4);
	assert_int_equal(w.traces, da_totals(w.d)->traces);
	assert_int_equal(w.bad, 0);
	assert_memory_equal(da_current(w.d), &zero, sizeof(zero));
	da_close(w.d);
}

struct kinds {
	uint64_t root, side, stitched, orphans, gens;
	int bad;
};

static int kinds_end(void *data, const struct da_gen *g)
{
	struct kinds *k = data;
	uint64_t root = 0, side = 0, stitched = 0, orphans = 0, bushes = 0;
	for (const struct da_trace *t = g->traces; t; t = t->next)
		if (t->parent_exit == DA_PARENT_EXIT_NONE)
			root++;
		else if (t->parent_exit == DA_PARENT_EXIT_STITCH)
			stitched++;
		else if (t->parent_trace)
			side++;
		else
			orphans++;
	for (const struct da_bush *b = g->bushes; b; b = b->next)
		bushes++;
	const struct da_counts *n = &g->n;
	k->bad += n->root != root || n->side != side || n->stitched != stitched ||
	          n->orphans != orphans || n->bushes != bushes;
	k->bad += n->traces != n->root + n->side + n->stitched + n->orphans;
	k->bad += n->bushes != n->root + n->stitched + n->orphans;
	k->root += root;
	k->side += side;
	k->stitched += stitched;
	k->orphans += orphans;
	k->gens++;
	return 0;
}

static void test_side_and_orphan_traces_counted_apart_on_every_sample(void **state)
{
	(void)state;
	size_t npaths;
	char **paths = sample_paths(&npaths);
	unsigned n = 0;
	uint64_t orphans = 0;
	for (size_t i = 0; i < npaths; i++) {
		const char *path = paths[i];
		struct kinds kc = { 0 };
		struct da_sink sink = DA_SINK(.gen_end = kinds_end);
		struct da_options o = DA_OPTIONS(.sink = &sink, .sink_data = &kc);
		da_dump *d = da_open_path(path, &o, NULL);
		assert_int_equal(da_read(d), DA_OK);
		const struct da_counts *t = da_totals(d);
		assert_int_equal(kc.bad, 0);
		assert_int_equal(t->root, kc.root);
		assert_int_equal(t->side, kc.side);
		assert_int_equal(t->stitched, kc.stitched);
		assert_int_equal(t->orphans, kc.orphans);
		assert_int_equal(t->traces, t->root + t->side + t->stitched + t->orphans);
		orphans += t->orphans;
		if (strcmp(path, "samples/late.dump") == 0) {
			/* its one trace, "start 1/5" of a trace not in the dump */
			assert_int_equal(t->traces, 1);
			assert_int_equal(t->orphans, 1);
			assert_int_equal(t->side, 0);
			assert_int_equal(t->bushes, 1);
		}
		da_close(d);
		free(paths[i]);
		n++;
	}
	free(paths);
	assert_true(n >= 34);
	assert_true(orphans >= 1);
}

/* ---- exits with places ----------------------------------------------- */

struct exit_seen {
	unsigned n, with_trace, with_resume;
	char late_resume[64];
	int late_line;
};

static int late_exit(void *data, const struct da_exit *x)
{
	struct exit_seen *s = data;
	s->n++;
	s->with_trace += x->trace_file != NULL;
	s->with_resume += x->resume_file != NULL;
	if (x->id == 2 && x->exit == 1) {
		/* trace 2 starts at late.lua:9 */
		assert_non_null(x->trace);
		assert_string_equal(x->trace_file, x->trace->file);
		assert_int_equal(x->trace_line, x->trace->line);
	}
	if (x->id == 1) {
		assert_null(x->trace);
		assert_null(x->trace_file);
		assert_int_equal(x->trace_line, DA_NO_LINE);
	}
	return 0;
}

static int late_gen_end(void *data, const struct da_gen *g)
{
	struct exit_seen *s = data;
	const char *f = da_gen_exit_resume(g, 1, 5, &s->late_line);
	snprintf(s->late_resume, sizeof(s->late_resume), "%s", f ? f : "(none)");
	assert_null(da_gen_exit_resume(g, 2, 1, NULL));
	return 0;
}

static void test_exits_carry_their_trace_start_and_where_they_resume(void **state)
{
	(void)state;
	/* late.dump: exits 1/5 (trace 1 not in the dump) ten times, then
	 * trace 2 starts there, an orphan: exit 1/5 resumes where it
	 * starts; exits 2/1 of trace 2 */
	size_t len;
	char *text = slurp("samples/late.dump", &len);
	unsigned no;
	char file[64];
	int line;
	start_loc(dump_line(text, "---- TRACE 2 start 1/5 ", NULL, &no), file, sizeof(file), &line);
	struct exit_seen s = { 0 };
	struct da_sink sink = DA_SINK(.exit = late_exit, .gen_end = late_gen_end);
	struct da_options o = DA_OPTIONS(.sink = &sink, .sink_data = &s, .flags = DA_ANSWERS);
	da_dump *d = da_open_path("samples/late.dump", &o, NULL);
	assert_int_equal(da_read(d), DA_OK);
	assert_int_equal(s.n, 13);
	assert_int_equal(s.with_trace, 3);      /* 2/1, three times */
	assert_int_equal(s.with_resume, 0);     /* taken before trace 2 started */
	assert_string_equal(s.late_resume, file);
	assert_int_equal(s.late_line, line);
	/* the answers know it too */
	const struct da_exit_count *x = da_hot_exit(d, 0);
	assert_int_equal(x->trace, 1);
	assert_int_equal(x->exit, 5);
	assert_null(x->trace_file);
	assert_string_equal(x->resume_file, file);
	assert_int_equal(x->resume_line, line);
	da_close(d);
	free(text);

	/* penlight-x.dump: exit 9/6, the hottest; trace 9 is the one that
	 * started last before "---- TRACE 9 stop"; attempts and then trace
	 * 18 start at 9/6 */
	text = slurp(PENLIGHT, &len);
	char tfile[64], rfile[64];
	int tline, rline;
	start_loc(dump_line(text, "---- TRACE 9 start ", "---- TRACE 9 stop", &no), tfile,
	          sizeof(tfile), &tline);
	start_loc(dump_line(text, "---- TRACE 18 start 9/6 ", NULL, &no), rfile, sizeof(rfile),
	          &rline);
	o.sink = NULL;
	d = da_open_path(PENLIGHT, &o, NULL);
	assert_int_equal(da_read(d), DA_OK);
	x = da_hot_exit(d, 0);
	assert_int_equal(x->trace, 9);
	assert_int_equal(x->exit, 6);
	assert_string_equal(x->trace_file, tfile);
	assert_int_equal(x->trace_line, tline);
	assert_string_equal(x->resume_file, rfile);
	assert_int_equal(x->resume_line, rline);
	/* LuaJIT gave up on exit 9/6 after four attempts (an interpreter
	 * stub): where they started, and where trace 9 starts */
	const struct da_given_up *g = NULL;
	for (size_t i = 0; i < da_given_ups(d); i++)
		if (da_given_up(d, i)->parent == 9 && da_given_up(d, i)->exit == 6)
			g = da_given_up(d, i);
	assert_non_null(g);
	assert_int_equal(g->attempts, 4);
	assert_string_equal(g->file, rfile);
	assert_int_equal(g->line, rline);
	assert_string_equal(g->trace_file, tfile);
	assert_int_equal(g->trace_line, tline);
	/* a root start has no parent trace */
	da_close(d);
	d = da_open_path("samples/blacklist.dump", &o, NULL);
	assert_int_equal(da_read(d), DA_OK);
	assert_true(da_given_ups(d) >= 1);
	g = da_given_up(d, 0);
	assert_int_equal(g->exit, DA_PARENT_EXIT_NONE);
	assert_string_equal(g->file, "blacklist.lua");
	assert_int_equal(g->line, 10);
	assert_null(g->trace_file);
	da_close(d);
	free(text);
}

/* ---- after an error, and out of order --------------------------------- */

struct stopper {
	da_dump *d;
	unsigned aborts, after, gen_ends;
	uint64_t stop_line;
	int inner_step, inner_read;
};

static int stop_third(void *data, const struct da_abort *a)
{
	struct stopper *s = data;
	if (s->after)
		s->after++;             /* a callback after the stop: never */
	if (++s->aborts == 1) {
		s->inner_step = da_step(s->d);
		s->inner_read = da_read(s->d);
	}
	if (s->aborts == 3) {
		s->stop_line = a->line_no;
		s->after = 1;
		return 1;
	}
	return 0;
}

static int count_gen_end(void *data, const struct da_gen *g)
{
	(void)g;
	((struct stopper *)data)->gen_ends++;
	return 0;
}

static void test_after_a_stop_counts_and_answers_say_what_was_read(void **state)
{
	(void)state;
	/* the line of the third abort header */
	size_t len;
	char *text = slurp(PENLIGHT, &len);
	unsigned third = 0, line = 1, seen = 0;
	for (const char *p = text; *p && !third; line++) {
		if (strncmp(p, "---- TRACE ", 11) == 0 && strstr(p, " abort ") < strchr(p, '\n') &&
		    strstr(p, " abort ") && ++seen == 3)
			third = line;
		p = strchr(p, '\n') + 1;
	}
	assert_true(third > 100);
	struct stopper s = { 0 };
	struct da_sink sink = DA_SINK(.abort = stop_third, .gen_end = count_gen_end);
	struct da_options o = DA_OPTIONS(.sink = &sink, .sink_data = &s, .flags = DA_ANSWERS);
	s.d = da_open_path(PENLIGHT, &o, NULL);
	assert_int_equal(da_read(s.d), DA_ESTOPPED);
	/* from inside a callback: refused, and the run went on */
	assert_int_equal(s.inner_step, DA_EINVAL);
	assert_int_equal(s.inner_read, DA_EINVAL);
	assert_int_equal(s.aborts, 3);
	assert_int_equal(s.stop_line, third);
	/* the parser took the lines up to the one that stopped it */
	assert_int_equal(da_line_counts(s.d)->total, third);
	assert_true(da_lines_read(s.d) >= third);
	/* no generation completed; the one it stopped in has its part */
	assert_int_equal(da_generations(s.d), 0);
	assert_int_equal(da_totals(s.d)->aborts, 0);
	assert_int_equal(da_current(s.d)->aborts, 3);
	uint64_t sum = 0;
	for (size_t i = 0; i < da_abort_reasons(s.d); i++)
		sum += da_abort_reason(s.d, i)->count;
	assert_int_equal(sum, 3);
	/* it stays stopped, silently */
	assert_int_equal(da_step(s.d), DA_ESTOPPED);
	assert_int_equal(da_read(s.d), DA_ESTOPPED);
	assert_int_equal(s.after, 1);
	assert_int_equal(s.gen_ends, 0);
	assert_string_equal(da_dump_error(s.d), "stopped by a sink callback");
	da_close(s.d);

	/* interrupted before reading: nothing read, answers empty but there */
	o = (struct da_options)DA_OPTIONS(.flags = DA_ANSWERS);
	da_dump *d = da_open_path(PENLIGHT, &o, NULL);
	da_interrupt(d);
	assert_int_equal(da_read(d), DA_EINTR);
	assert_int_equal(da_line_counts(d)->total, 0);
	assert_int_equal(da_generations(d), 0);
	assert_int_equal(da_abort_reasons(d), 0);
	assert_int_equal(da_step(d), DA_EINTR);
	da_close(d);
	free(text);
}

static int count_begin(void *data, const struct da_gen *g)
{
	(void)g;
	(*(unsigned *)data)++;
	return 0;
}

static int count_end(void *data, const struct da_gen *g)
{
	(void)g;
	(*(unsigned *)data) += 100;
	return 0;
}

static void test_no_bytes_is_one_empty_generation_and_null_handles_answer_empty(void **state)
{
	(void)state;
	unsigned calls = 0;
	struct da_sink sink = DA_SINK(.gen_begin = count_begin, .gen_end = count_end);
	struct da_options o = DA_OPTIONS(.sink = &sink, .sink_data = &calls);
	int err = 1;
	da_dump *d = da_open_memory(NULL, 0, &o, &err);
	assert_non_null(d);
	assert_int_equal(err, DA_OK);
	assert_int_equal(da_read(d), DA_OK);
	assert_int_equal(calls, 101);
	assert_int_equal(da_generations(d), 1);
	assert_int_equal(da_lines_read(d), 0);
	/* no line at all: the warning every run without a JIT event gets */
	assert_int_equal(da_warnings(d), 1);
	assert_int_equal(da_read(d), DA_OK);   /* and again: the end */
	assert_int_equal(calls, 101);
	da_close(d);
	/* ... which DA_STRICT makes fatal: no generation begins */
	calls = 0;
	struct da_options strict = DA_OPTIONS(.sink = &sink, .sink_data = &calls, .flags = DA_STRICT);
	d = da_open_memory(NULL, 0, &strict, &err);
	assert_non_null(d);
	assert_int_equal(da_read(d), DA_ESTRICT);
	assert_int_equal(calls, 0);
	assert_int_equal(da_warnings(d), 1);
	da_close(d);
	/* the same pushed */
	calls = 0;
	d = da_open_push(&o, &err);
	assert_int_equal(da_feed(d, NULL, 0, 1), DA_OK);
	assert_int_equal(calls, 101);
	da_close(d);

	/* a failed open's NULL: calls refuse it or answer as empty */
	assert_int_equal(da_step(NULL), DA_EINVAL);
	assert_int_equal(da_feed(NULL, NULL, 0, 1), DA_EINVAL);
	assert_int_equal(da_bytes_read(NULL), 0);
	assert_int_equal(da_totals(NULL)->traces, 0);
	assert_int_equal(da_current(NULL)->traces, 0);
	assert_int_equal(da_line_counts(NULL)->total, 0);
	assert_int_equal(da_abort_sites(NULL), 0);
	assert_null(da_abort_site(NULL, 0));
	assert_string_equal(da_dump_error(NULL), "invalid argument");
	da_interrupt(NULL);
	da_close(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_current_is_the_generation_being_read_and_zero_between),
		cmocka_unit_test(test_side_and_orphan_traces_counted_apart_on_every_sample),
		cmocka_unit_test(test_exits_carry_their_trace_start_and_where_they_resume),
		cmocka_unit_test(test_after_a_stop_counts_and_answers_say_what_was_read),
		cmocka_unit_test(test_no_bytes_is_one_empty_generation_and_null_handles_answer_empty),
	};
	return cmocka_run_group_tests_name("state", tests, NULL, NULL);
}
