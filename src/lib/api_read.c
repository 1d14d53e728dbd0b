/* api_read.c — reading a dump: da_step pulls chunks of lines from the input,
 * da_feed takes the bytes a caller pushes; both run the lines through the
 * parser into the model, whose records go to the sink.  Once reading is
 * over (the end, or an error) the handle keeps its code and the answers
 * are made. */
#include <errno.h>
#include <stdio.h>
#include "lib/api.h"
#include "parse/parser.h"
#include "util/alloc.h"

/* Why the parser or model stopped. */
static int stopped(da_dump *d)
{
	if (d->model.stopped)
		return DA_ESTOPPED;
	return d->diag.failed ? DA_ESTRICT : DA_ESTOPPED;
}

int api_over(da_dump *d, int err)
{
	d->state = err;
	if (d->answers && err != DA_ENOMEM) {
		/* An error in the middle of a generation: the answers cover
		 * its part too (the sink gets no gen_end for it). */
		if (err < 0 && d->model.started)
			answers_gen_end(d->answers, &d->model.gen.pub);
		api_answers_make(d);
	}
	return err;
}

/* The end of the input: an unfinished trace, the last generation. */
static int finish(da_dump *d)
{
	struct input *in = &d->in;
	int r = 0;
	if (input_truncated(in))
		r = diag_warn(&d->diag, in->lineno, "the %s stream ends early: the dump was cut off",
		              input_compression(in));
	/* Lines, and not one of them a header or a -jv event, nor one that
	 * was warned about as a broken header: not a dump (a log, a binary,
	 * the wrong file). */
	const struct da_line_counts *lc = parser_counts(d->parser);
	if (r >= 0 && lc->total > 0 && lc->header == 0 && d->diag.warnings == 0)
		r = diag_warn(&d->diag, in->lineno, "no '---- TRACE' line and no -jv line in %llu "
		              "lines: this does not look like a LuaJIT dump",
		              (unsigned long long)lc->total);
	/* No line at all (`luajit -jdump app.lua | ...` of a program that
	 * did not start): a warning like any, counted, fatal under strict. */
	if (r >= 0 && lc->total == 0 && d->diag.warnings == 0)
		r = diag_warn(&d->diag, 0, "no JIT events: the input is empty (no trace, abort or "
		              "-jv line; did the program run, under -jdump or -jv?)");
	if (r >= 0)
		r = parser_end(d->parser, in->lineno);
	if (r >= 0)
		r = model_finish(&d->model, in->lineno);
	if (r >= 0)
		api_findings_make(d);
	return api_over(d, r < 0 ? stopped(d) : 0);
}

/* An input error (-errno) as the handle's. */
static int input_failed(da_dump *d, int r)
{
	snprintf(d->error, sizeof(d->error), "%s", input_error(&d->in));
	return api_over(d, r == -ENOMEM ? DA_ENOMEM : r == -ECANCELED ? DA_EINTR : DA_EIO);
}

/* ---- pulling: da_step ------------------------------------------------ */

/* One chunk through the parser, for oom_call. */
struct stepping {
	da_dump *d;
	int r;
};

static void step(void *arg)
{
	struct stepping *st = arg;
	da_dump *d = st->d;
	const struct line *lines;
	int r = input_next_chunk(&d->in, &lines);
	if (r > 0)
		r = parser_lines(d->parser, lines, (size_t)r) < 0 ? api_over(d, stopped(d)) : 1;
	else if (r == 0)
		r = finish(d);
	else
		r = input_failed(d, r);
	st->r = r;
}

/* fn(arg) under the catch of running out of memory, busy meanwhile. */
static int run(da_dump *d, void (*fn)(void *), void *arg)
{
	d->busy = 1;
	int r = oom_call(fn, arg);
	d->busy = 0;
	if (r < 0) {
		d->state = DA_ENOMEM;
		return DA_ENOMEM;
	}
	return 0;
}

/* Not while reading is over, nor from a callback, nor interrupted: the
 * code to return instead of reading, or API_READING. */
static int may_read(da_dump *d)
{
	if (d->busy)
		return DA_EINVAL;       /* a callback's call: the handle unchanged */
	if (d->state != API_READING)
		return d->state;
	if (atomic_load(&d->interrupted))
		return api_over(d, DA_EINTR);
	return API_READING;
}

int da_step(da_dump *d)
{
	if (!d || d->push)
		return DA_EINVAL;
	int r = may_read(d);
	if (r != API_READING)
		return r;
	d->stepped = 1;
	struct stepping st = { d, 0 };
	return run(d, step, &st) < 0 ? DA_ENOMEM : st.r;
}

int da_read(da_dump *d)
{
	int r;
	while ((r = da_step(d)) > 0)
		;
	return r;
}

void da_interrupt(da_dump *d)
{
	if (!d)
		return;
	atomic_store(&d->interrupted, 1);
	input_interrupt(&d->in);
}

/* ---- pushing: da_feed ------------------------------------------------ */

struct feeding {
	da_dump *d;
	const void *buf;
	size_t len;
	int last;
	int why;                    /* the code a batch of lines stopped with */
	int r;
};

static int feed_lines(void *ctx, const struct line *lines, size_t n)
{
	struct feeding *f = ctx;
	if (atomic_load(&f->d->interrupted))
		f->why = DA_EINTR;
	else if (parser_lines(f->d->parser, lines, n) < 0)
		f->why = stopped(f->d);
	return f->why ? -1 : 0;
}

static void feed(void *arg)
{
	struct feeding *f = arg;
	da_dump *d = f->d;
	int r = input_push(&d->in, f->buf, f->len, f->last, feed_lines, f);
	if (f->why)
		f->r = api_over(d, f->why);
	else if (r < 0)
		f->r = input_failed(d, r);
	else
		f->r = f->last ? finish(d) : 0;
}

int da_feed(da_dump *d, const void *buf, size_t len, int last)
{
	if (!d || !d->push || (!buf && len) || d->state == 0)
		return DA_EINVAL;       /* a feed after the last one, too */
	int r = may_read(d);
	if (r != API_READING)
		return r;
	d->stepped = 1;
	struct feeding f = { d, buf, len, last, 0, 0 };
	return run(d, feed, &f) < 0 ? DA_ENOMEM : f.r;
}
