/* test_api.c — the public API (dumpanalyze.h) as a user sees it: opening
 * by path, descriptor and memory, errors, the sink, strict mode, trace
 * text, exit counts and the whole-run answers, on real sample dumps. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>
#include "dumpanalyze.h"
#include "samples.h"
#include "threads.h"

#define PENLIGHT "samples/penlight-x.dump"

/* A descriptor of an unlinked file holding buf. */
static int fd_with(const void *buf, size_t len)
{
	FILE *fp = tmpfile();
	assert_non_null(fp);
	int fd = dup(fileno(fp));
	fclose(fp);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* What a sink saw. */
struct seen {
	unsigned gens_begun, gens_ended, traces, aborts, exits;
	int stop_at_abort;          /* return 1 from this abort (1-based) */
};

static int seen_gen_begin(void *data, const struct da_gen *g)
{
	struct seen *s = data;
	assert_int_equal(g->number, s->gens_begun + 1);
	s->gens_begun++;
	return 0;
}

static int seen_trace(void *data, const struct da_trace *t)
{
	(void)t;
	((struct seen *)data)->traces++;
	return 0;
}

static int seen_abort(void *data, const struct da_abort *a)
{
	struct seen *s = data;
	assert_non_null(a->reason);
	assert_non_null(a->file);
	s->aborts++;
	return s->stop_at_abort && s->aborts == (unsigned)s->stop_at_abort;
}

static int seen_exit(void *data, const struct da_exit *x)
{
	(void)x;
	((struct seen *)data)->exits++;
	return 0;
}

static int seen_gen_end(void *data, const struct da_gen *g)
{
	struct seen *s = data;
	assert_int_equal(g->number, s->gens_begun);
	s->gens_ended++;
	return 0;
}

static const struct da_sink seen_sink = DA_SINK(
	.gen_begin = seen_gen_begin, .trace = seen_trace, .abort = seen_abort, .exit = seen_exit,
	.gen_end = seen_gen_end
);

/* penlight-x.dump's counts (samples/README.md, dumpanalyze's summary). */
static void assert_penlight(da_dump *d, const struct seen *s)
{
	const struct da_counts *n = da_totals(d);
	assert_int_equal(n->traces, 74);
	assert_int_equal(n->root, 21);
	assert_int_equal(n->stitched, 5);
	assert_int_equal(n->bushes, 26);
	assert_int_equal(n->aborts, 47);
	assert_int_equal(n->exits, 576);
	assert_int_equal(n->incomplete, 0);
	assert_int_equal(da_lines_read(d), 9475);
	assert_int_equal(da_line_counts(d)->total, 9475);
	assert_int_equal(da_line_counts(d)->content, 8388);
	assert_int_equal(da_generations(d), 1);
	assert_int_equal(da_warnings(d), 0);
	assert_string_equal(da_format(d), "dump");
	assert_int_equal(s->gens_begun, 1);
	assert_int_equal(s->gens_ended, 1);
	assert_int_equal(s->traces, 74);
	assert_int_equal(s->aborts, 47);
	assert_int_equal(s->exits, 576);
}

/* Read d to its end, check penlight's counts and the compression. */
static void read_penlight(da_dump *d, struct seen *s, const char *compression)
{
	assert_non_null(d);
	assert_int_equal(da_read(d), DA_OK);
	assert_penlight(d, s);
	assert_string_equal(da_compression(d), compression);
}

static void test_path_fd_memory_thread_or_not_plain_or_gzip_same_counts(void **state)
{
	(void)state;
	size_t len, gz_len;
	char *text = slurp(PENLIGHT, &len);
	unsigned char *gz = gzip_bytes(text, len, &gz_len);
	assert_true(gz_len < len / 4);
	int err = 1;

	struct seen s = { 0 };
	struct da_options o = DA_OPTIONS(.sink = &seen_sink, .sink_data = &s);
	da_dump *d = da_open_path(PENLIGHT, &o, &err);
	assert_int_equal(err, DA_OK);
	read_penlight(d, &s, "plain");
	assert_int_equal(da_bytes_read(d), len);
	da_close(d);

	/* the same on the caller's thread alone */
	memset(&s, 0, sizeof(s));
	o.flags = DA_NO_THREAD;
	d = da_open_path(PENLIGHT, &o, &err);
	read_penlight(d, &s, "plain");
	da_close(d);
	o.flags = 0;

	int fds[2] = { fd_with(text, len), fd_with(gz, gz_len) };
	for (int i = 0; i < 2; i++) {
		memset(&s, 0, sizeof(s));
		d = da_open_fd(fds[i], &o, &err);
		read_penlight(d, &s, i ? "gzip" : "plain");
		da_close(d);
	}
	/* da_close does not close a descriptor it was given */
	for (int i = 0; i < 2; i++) {
		assert_true(fcntl(fds[i], F_GETFD) >= 0);
		close(fds[i]);
	}

	const void *bufs[2] = { text, gz };
	size_t lens[2] = { len, gz_len };
	for (int i = 0; i < 2; i++) {
		memset(&s, 0, sizeof(s));
		d = da_open_memory(bufs[i], lens[i], &o, &err);
		read_penlight(d, &s, i ? "gzip" : "plain");
		da_close(d);
	}
	free(gz);
	free(text);
}

static void test_missing_file_is_eopen_with_errno(void **state)
{
	(void)state;
	int err = 0;
	errno = 0;
	assert_null(da_open_path("samples/no-such.dump", NULL, &err));
	assert_int_equal(err, DA_EOPEN);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(da_strerror(err), "cannot open the dump");
	/* a directory is no dump either */
	errno = 0;
	assert_null(da_open_path("samples", NULL, &err));
	assert_int_equal(err, DA_EOPEN);
	assert_int_equal(errno, EISDIR);
}

static void test_null_and_bad_arguments_are_einval(void **state)
{
	(void)state;
	int err = 0;
	assert_null(da_open_path(NULL, NULL, &err));
	assert_int_equal(err, DA_EINVAL);
	err = 0;
	assert_null(da_open_memory(NULL, 10, NULL, &err));
	assert_int_equal(err, DA_EINVAL);
	err = 0;
	assert_null(da_open_fd(-1, NULL, &err));
	assert_int_equal(err, DA_EINVAL);
	assert_null(da_open_path(NULL, NULL, NULL));    /* err may be NULL */
	assert_int_equal(da_step(NULL), DA_EINVAL);
	assert_int_equal(da_read(NULL), DA_EINVAL);
	assert_string_equal(da_strerror(DA_EINVAL), "invalid argument");
	da_close(NULL);
	/* no bytes at all is an empty dump, not an error */
	da_dump *d = da_open_memory(NULL, 0, NULL, &err);
	assert_non_null(d);
	assert_int_equal(da_read(d), DA_OK);
	assert_int_equal(da_totals(d)->traces, 0);
	da_close(d);
}

/* The handle keeps its own copy of the sink and options: the caller's
 * may be gone (here overwritten) before the dump is read. */
static void test_options_and_sink_may_go_after_open(void **state)
{
	(void)state;
	struct seen s = { 0 };
	struct da_sink sink = seen_sink;
	struct da_options o = DA_OPTIONS(.name = "mine", .sink = &sink, .sink_data = &s);
	da_dump *d = da_open_path(PENLIGHT, &o, NULL);
	memset(&sink, 0, sizeof(sink));
	memset(&o, 0, sizeof(o));
	assert_int_equal(da_read(d), DA_OK);
	assert_penlight(d, &s);
	da_close(d);
}

static void test_sink_returning_non_zero_stops_the_run(void **state)
{
	(void)state;
	struct seen s = { .stop_at_abort = 3 };
	struct da_options o = DA_OPTIONS(.sink = &seen_sink, .sink_data = &s);
	int err;
	da_dump *d = da_open_path(PENLIGHT, &o, &err);
	assert_non_null(d);
	assert_int_equal(da_read(d), DA_ESTOPPED);
	assert_int_equal(s.aborts, 3);
	assert_int_equal(s.gens_ended, 0);
	/* the handle stays stopped */
	assert_int_equal(da_step(d), DA_ESTOPPED);
	assert_int_equal(s.aborts, 3);
	assert_string_equal(da_dump_error(d), "stopped by a sink callback");
	da_close(d);
}

/* What the diag callback got. */
struct diags {
	unsigned n, errors;
	char file[64], msg[256];
	uint64_t line;
};

static void record_diag(void *data, enum da_severity sev, const char *file, uint64_t line,
                        const char *msg)
{
	struct diags *g = data;
	g->n++;
	g->errors += sev == DA_ERROR;
	snprintf(g->file, sizeof(g->file), "%s", file);
	snprintf(g->msg, sizeof(g->msg), "%s", msg);
	g->line = line;
}

static const char malformed[] =
	"---- TRACE 1 start a.lua:1\n"
	"---- TRACE 1 stop -> loop\n"
	"---- TRACE 2 bogus words\n"
	"---- TRACE 3 start a.lua:5\n"
	"---- TRACE 3 stop -> loop\n";

static void test_strict_stops_at_a_malformed_line(void **state)
{
	(void)state;
	struct diags g = { 0 };
	struct seen s = { 0 };
	struct da_options o = DA_OPTIONS(.flags = DA_STRICT, .name = "bad.dump", .sink = &seen_sink,
	                                 .sink_data = &s, .diag = record_diag, .diag_data = &g);
	int err;
	da_dump *d = da_open_memory(malformed, sizeof(malformed) - 1, &o, &err);
	assert_non_null(d);
	assert_int_equal(da_read(d), DA_ESTRICT);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.errors, 1);
	assert_string_equal(g.file, "bad.dump");
	assert_int_equal(g.line, 3);
	assert_string_equal(g.msg, "unknown header kind: ---- TRACE 2 bogus words");
	assert_int_equal(da_warnings(d), 1);
	assert_int_equal(s.gens_ended, 0);
	da_close(d);

	/* without DA_STRICT the same line is a warning, and reading goes on */
	memset(&g, 0, sizeof(g));
	memset(&s, 0, sizeof(s));
	o.flags = 0;
	d = da_open_memory(malformed, sizeof(malformed) - 1, &o, &err);
	assert_int_equal(da_read(d), DA_OK);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.errors, 0);
	assert_int_equal(g.line, 3);
	assert_int_equal(da_warnings(d), 1);
	assert_int_equal(s.traces, 2);
	da_close(d);
}

/* Trace 1 of penlight-x.dump, as its sink saw it. */
struct first_trace {
	int found;
	size_t len[DA_SEC_COUNT];
	unsigned present;
	char *bytecode;
	int text_null;
};

static int keep_first(void *data, const struct da_trace *t)
{
	struct first_trace *f = data;
	f->text_null += t->text == NULL;
	if (t->id != 1 || f->found++ || !t->text)
		return 0;
	f->present = t->text->present;
	memcpy(f->len, t->text->len, sizeof(f->len));
	f->bytecode = malloc(f->len[DA_SEC_BYTECODE]);
	assert_non_null(f->bytecode);
	memcpy(f->bytecode, t->text->buf + t->text->off[DA_SEC_BYTECODE], f->len[DA_SEC_BYTECODE]);
	return 0;
}

/* The byte offset where line `no` (1-based) starts. */
static size_t line_start(const char *text, size_t len, unsigned no)
{
	size_t at = 0;
	for (unsigned l = 1; l < no; l++) {
		const char *nl = memchr(text + at, '\n', len - at);
		assert_non_null(nl);
		at = (size_t)(nl - text) + 1;
	}
	return at;
}

static size_t count_lines(const char *text, size_t len, unsigned first, unsigned end)
{
	return line_start(text, len, end) - line_start(text, len, first);
}

static void test_keep_text_gives_each_trace_its_lines(void **state)
{
	(void)state;
	size_t len;
	char *text = slurp(PENLIGHT, &len);
	struct first_trace f = { 0 };
	struct da_sink sink = DA_SINK(.trace = keep_first);
	struct da_options o = DA_OPTIONS(.flags = DA_KEEP_TEXT, .sink = &sink, .sink_data = &f);
	da_dump *d = da_open_path(PENLIGHT, &o, NULL);
	assert_int_equal(da_read(d), DA_OK);
	da_close(d);
	assert_int_equal(f.found, 1);
	assert_int_equal(f.text_null, 0);
	assert_non_null(f.bytecode);
	assert_int_equal(f.present, 1u << DA_SEC_BYTECODE | 1u << DA_SEC_IR | 1u << DA_SEC_MCODE);
	/* lines 2-21 are its bytecode, 23-118 its IR, 120-355 its mcode */
	size_t bc = line_start(text, len, 2);
	assert_int_equal(f.len[DA_SEC_BYTECODE], count_lines(text, len, 2, 22));
	assert_memory_equal(f.bytecode, text + bc, f.len[DA_SEC_BYTECODE]);
	assert_int_equal(f.len[DA_SEC_IR], count_lines(text, len, 23, 119));
	assert_int_equal(f.len[DA_SEC_MCODE], count_lines(text, len, 120, 356));
	assert_int_equal(f.len[DA_SEC_SNAPSHOTS], 0);
	free(f.bytecode);

	/* without the flag: no text */
	memset(&f, 0, sizeof(f));
	o.flags = 0;
	d = da_open_path(PENLIGHT, &o, NULL);
	assert_int_equal(da_read(d), DA_OK);
	da_close(d);
	assert_int_equal(f.found, 1);
	assert_int_equal(f.text_null, 74);
	assert_null(f.bytecode);
	free(text);
}

/* ---- one trace's text is bounded (issue 34) ---------------------------- */

#define LONG_IR "0001 rbx   >  int ADD    0001  +1\n"     /* 34 bytes */
#define LONG_LINES 1100000u                               /* 37.4 MB of IR */

struct long_trace {
	unsigned traces;
	size_t ir, total;
	int whole;                  /* every kept line is a whole IR line */
};

static int keep_long(void *data, const struct da_trace *t)
{
	struct long_trace *l = data;
	l->traces++;
	assert_non_null(t->text);
	l->ir = t->text->len[DA_SEC_IR];
	for (int s = 0; s < DA_SEC_COUNT; s++)
		l->total += t->text->len[s];
	const char *ir = t->text->buf + t->text->off[DA_SEC_IR];
	size_t n = sizeof(LONG_IR) - 1;
	l->whole = l->ir % n == 0;
	for (size_t at = 0; l->whole && at < l->ir; at += n)
		l->whole = memcmp(ir + at, LONG_IR, n) == 0;
	return 0;
}

/* A trace of 1.1 M IR lines (LuaJIT writes at most 65,536): its text is
 * kept up to 32 MiB of whole lines, one warning names the first line left
 * out, every line is counted; and without DA_STRICT the run goes on. */
static void test_keep_text_of_one_trace_is_capped(void **state)
{
	(void)state;
	const char *head = "---- TRACE 1 start x.lua:1\n---- TRACE 1 IR\n";
	const char *tail = "---- TRACE 1 stop -> loop\n";
	size_t n = sizeof(LONG_IR) - 1, hl = strlen(head), tl = strlen(tail);
	size_t len = hl + LONG_LINES * n + tl;
	char *dump = malloc(len);
	assert_non_null(dump);
	memcpy(dump, head, hl);
	for (size_t i = 0; i < LONG_LINES; i++)
		memcpy(dump + hl + i * n, LONG_IR, n);
	memcpy(dump + hl + LONG_LINES * n, tail, tl);
	struct long_trace l = { 0 };
	struct diags g = { 0 };
	struct da_sink sink = DA_SINK(.trace = keep_long);
	struct da_options o = DA_OPTIONS(.flags = DA_KEEP_TEXT, .name = "long.dump", .sink = &sink,
	                                 .sink_data = &l, .diag = record_diag, .diag_data = &g);
	da_dump *d = da_open_memory(dump, len, &o, NULL);
	assert_non_null(d);
	assert_int_equal(da_read(d), DA_OK);
	size_t fit = (32u << 20) / n;
	assert_int_equal(l.traces, 1);
	assert_int_equal(l.ir, fit * n);
	assert_int_equal(l.total, fit * n);
	assert_true(l.whole);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.errors, 0);
	assert_string_equal(g.file, "long.dump");
	assert_int_equal(g.line, 2 + fit + 1);
	assert_string_equal(g.msg, "trace 1: its text passes 32 MiB (no trace of LuaJIT's is that long): "
	                           "kept up to this line, the rest counted only");
	assert_int_equal(da_warnings(d), 1);
	assert_int_equal(da_line_counts(d)->content, LONG_LINES);
	da_close(d);

	/* under DA_STRICT the warning is the error that stops the run */
	memset(&g, 0, sizeof(g));
	memset(&l, 0, sizeof(l));
	o.flags = DA_KEEP_TEXT | DA_STRICT;
	d = da_open_memory(dump, len, &o, NULL);
	assert_int_equal(da_read(d), DA_ESTRICT);
	assert_int_equal(g.errors, 1);
	assert_int_equal(g.line, 2 + fit + 1);
	assert_int_equal(l.traces, 0);
	da_close(d);
	free(dump);
}

/* ---- exit counts against the tool's gen-N-exits.csv -------------------- */

#define MAX_ROWS 256

struct exit_rows {
	const char *golden;         /* directory of gen-N-exits.csv */
	unsigned gens, rows;        /* compared */
};

/* Every row of gen-N-exits.csv: TRACE,EXIT,COUNT,SIDE_TRACE.  A trace
 * and exit can have two rows (taken before and after the trace was
 * known); da_gen_exit_count is their sum. */
static int check_exits(void *data, const struct da_gen *g)
{
	struct exit_rows *x = data;
	char path[256];
	snprintf(path, sizeof(path), "%s/gen-%u-exits.csv", x->golden, (unsigned)g->number);
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	char line[128];
	assert_non_null(fgets(line, sizeof(line), fp));
	assert_string_equal(line, "TRACE,EXIT,COUNT,SIDE_TRACE\r\n");
	unsigned id[MAX_ROWS], ex[MAX_ROWS];
	uint64_t count[MAX_ROWS], total = 0;
	size_t n = 0;
	unsigned long long c;
	while (fgets(line, sizeof(line), fp)) {
		assert_true(n < MAX_ROWS);
		assert_int_equal(sscanf(line, "%u,%u,%llu,", &id[n], &ex[n], &c), 3);
		count[n++] = c;
		total += c;
	}
	fclose(fp);
	for (size_t i = 0; i < n; i++) {
		uint64_t sum = 0;
		for (size_t j = 0; j < n; j++)
			if (id[j] == id[i] && ex[j] == ex[i])
				sum += count[j];
		assert_int_equal(da_gen_exit_count(g, id[i], ex[i]), sum);
	}
	assert_int_equal(g->n.exits, total);
	assert_int_equal(da_gen_exit_count(g, 9999, 0), 0);
	x->gens++;
	x->rows += (unsigned)n;
	return 0;
}

static void test_gen_exit_count_equals_exits_csv(void **state)
{
	(void)state;
	static const struct { const char *dump, *golden; unsigned gens; } cases[] = {
		{ "samples/flush.dump", "tests/cli/golden/flush/expected", 4 },
		{ PENLIGHT, "tests/cli/golden/penlight-answers/expected", 1 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct exit_rows x = { cases[i].golden, 0, 0 };
		struct da_sink sink = DA_SINK(.gen_end = check_exits);
		struct da_options o = DA_OPTIONS(.sink = &sink, .sink_data = &x);
		da_dump *d = da_open_path(cases[i].dump, &o, NULL);
		assert_int_equal(da_read(d), DA_OK);
		da_close(d);
		assert_int_equal(x.gens, cases[i].gens);
		assert_true(x.rows > 10);
	}
}

/* da_interrupt: before a step, and from another thread while the reading
 * thread waits on a pipe whose writer is quiet (it must not wait for
 * more input to come). */
struct interrupter {
	pthread_t thread;
	da_dump *d;
};

/* Interrupts once the reading thread waits in poll() on the quiet pipe,
 * the state the test is about. */
static void *interrupt_when_polling(void *arg)
{
	struct interrupter *it = arg;
	wait_for_a_thread_in_poll();
	da_interrupt(it->d);
	return NULL;
}

static void test_interrupt_stops_even_a_quiet_pipe(void **state)
{
	(void)state;
	da_dump *d = da_open_path(PENLIGHT, NULL, NULL);
	assert_non_null(d);
	da_interrupt(d);
	assert_int_equal(da_step(d), DA_EINTR);
	assert_int_equal(da_step(d), DA_EINTR);     /* and it stays so */
	assert_string_equal(da_strerror(DA_EINTR), "interrupted");
	da_close(d);

	int fds[2];
	assert_int_equal(pipe(fds), 0);
	const char *head = "---- TRACE 1 start a.lua:1\n0001  FORI     1 => 2\n";
	assert_int_equal(write(fds[1], head, strlen(head)), (ssize_t)strlen(head));
	d = da_open_fd(fds[0], NULL, NULL);
	assert_non_null(d);
	struct interrupter it = { .d = d };
	alarm(60);      /* a reader the interrupt does not stop hangs here */
	assert_int_equal(pthread_create(&it.thread, NULL, interrupt_when_polling, &it), 0);
	int r, steps = 0;
	while ((r = da_step(d)) > 0)
		steps++;
	alarm(0);
	assert_int_equal(r, DA_EINTR);
	/* at most the one chunk of the two lines written came first */
	assert_true(steps <= 1);
	assert_int_equal(pthread_join(it.thread, NULL), 0);
	da_close(d);
	close(fds[0]);
	close(fds[1]);
}

static void test_step_is_positive_then_zero_for_good(void **state)
{
	(void)state;
	struct seen s = { 0 };
	struct da_options o = DA_OPTIONS(.sink = &seen_sink, .sink_data = &s);
	da_dump *d = da_open_path(PENLIGHT, &o, NULL);
	int r, steps = 0;
	while ((r = da_step(d)) > 0) {
		assert_int_equal(s.gens_ended, 0);  /* the generation ends at the end */
		steps++;
	}
	assert_int_equal(r, 0);
	assert_true(steps >= 1);
	assert_penlight(d, &s);
	for (int i = 0; i < 3; i++)
		assert_int_equal(da_step(d), 0);
	assert_int_equal(da_read(d), 0);
	assert_int_equal(s.gens_ended, 1);
	assert_int_equal(s.aborts, 47);
	da_close(d);
}

/* One handle read on a thread of the test's own: its result.  The sink
 * only counts: cmocka's asserts belong on the test's thread. */
struct reader {
	pthread_t thread;
	struct seen s;
	int r;
	struct da_counts n;
};

static int count_abort(void *data, const struct da_abort *a)
{
	(void)a;
	((struct seen *)data)->aborts++;
	return 0;
}

static void *read_one(void *arg)
{
	struct reader *rd = arg;
	struct da_sink sink = DA_SINK(.abort = count_abort, .exit = seen_exit);
	struct da_options o = DA_OPTIONS(.sink = &sink, .sink_data = &rd->s);
	da_dump *d = da_open_path(PENLIGHT, &o, NULL);
	rd->r = d ? da_read(d) : DA_EOPEN;
	if (d)
		rd->n = *da_totals(d);
	da_close(d);
	return NULL;
}

/* Handles are independent: two read at once on two threads. */
static void test_two_handles_on_two_threads(void **state)
{
	(void)state;
	struct reader rd[2];
	memset(rd, 0, sizeof(rd));
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&rd[i].thread, NULL, read_one, &rd[i]), 0);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(pthread_join(rd[i].thread, NULL), 0);
		assert_int_equal(rd[i].r, DA_OK);
		assert_int_equal(rd[i].n.traces, 74);
		assert_int_equal(rd[i].n.aborts, 47);
		assert_int_equal(rd[i].s.aborts, 47);
		assert_int_equal(rd[i].s.exits, 576);
	}
}

static void test_answers_only_with_the_flag_once_reading_is_over(void **state)
{
	(void)state;
	da_dump *d = da_open_path(PENLIGHT, NULL, NULL);
	assert_int_equal(da_read(d), DA_OK);
	assert_int_equal(da_abort_reasons(d), 0);
	assert_null(da_abort_reason(d, 0));
	assert_int_equal(da_abort_sites(d), 0);
	assert_null(da_abort_site(d, 0));
	assert_int_equal(da_hot_exits(d), 0);
	assert_null(da_hot_exit(d, 0));
	assert_int_equal(da_given_ups(d), 0);
	assert_null(da_given_up(d, 0));
	da_close(d);

	struct da_options o = DA_OPTIONS(.flags = DA_ANSWERS);
	d = da_open_path(PENLIGHT, &o, NULL);
	/* not before reading is over */
	assert_true(da_step(d) > 0);
	assert_int_equal(da_abort_reasons(d), 0);
	assert_int_equal(da_read(d), DA_OK);
	size_t n = da_abort_reasons(d);
	assert_true(n >= 2);
	/* README: 21 NYI: bytecode 71, then 14 NYI: bytecode 51 */
	const struct da_reason_count *r = da_abort_reason(d, 0);
	assert_string_equal(r->reason, "NYI: bytecode 71");
	assert_int_equal(r->count, 21);
	assert_string_equal(da_abort_reason(d, 1)->reason, "NYI: bytecode 51");
	assert_int_equal(da_abort_reason(d, 1)->count, 14);
	assert_null(da_abort_reason(d, n));
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += da_abort_reason(d, i)->count;
	assert_int_equal(sum, 47);
	/* the same record each time: a pointer into the handle */
	assert_ptr_equal(da_abort_reason(d, 0), r);
	n = da_abort_sites(d);
	assert_true(n >= 1);
	const struct da_site_count *s = da_abort_site(d, 0);
	assert_string_equal(s->reason, "NYI: bytecode 71");
	assert_string_equal(s->file, "tablex.lua");
	assert_int_equal(s->line, 351);
	assert_int_equal(s->count, 12);
	sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += da_abort_site(d, i)->count;
	assert_int_equal(sum, 47);
	/* gen-1-exits.csv's first rows: 9,6,14,18 and 17,1,14,19 */
	n = da_hot_exits(d);
	assert_true(n >= 2);
	const struct da_exit_count *x = da_hot_exit(d, 0);
	assert_int_equal(x->trace, 9);
	assert_int_equal(x->exit, 6);
	assert_int_equal(x->count, 14);
	assert_int_equal(x->side, 18);
	assert_int_equal(da_hot_exit(d, 1)->trace, 17);
	assert_int_equal(da_hot_exit(d, 1)->side, 19);
	assert_null(da_hot_exit(d, n));
	da_close(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_fd_memory_thread_or_not_plain_or_gzip_same_counts),
		cmocka_unit_test(test_missing_file_is_eopen_with_errno),
		cmocka_unit_test(test_null_and_bad_arguments_are_einval),
		cmocka_unit_test(test_options_and_sink_may_go_after_open),
		cmocka_unit_test(test_sink_returning_non_zero_stops_the_run),
		cmocka_unit_test(test_strict_stops_at_a_malformed_line),
		cmocka_unit_test(test_keep_text_gives_each_trace_its_lines),
		cmocka_unit_test(test_keep_text_of_one_trace_is_capped),
		cmocka_unit_test(test_gen_exit_count_equals_exits_csv),
		cmocka_unit_test(test_step_is_positive_then_zero_for_good),
		cmocka_unit_test(test_interrupt_stops_even_a_quiet_pipe),
		cmocka_unit_test(test_two_handles_on_two_threads),
		cmocka_unit_test(test_answers_only_with_the_flag_once_reading_is_over),
	};
	return cmocka_run_group_tests_name("api", tests, NULL, NULL);
}
