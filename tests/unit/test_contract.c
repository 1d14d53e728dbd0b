/* test_contract.c — what dumpanalyze.h promises beyond reading: versions,
 * the size checks of struct da_options and da_sink, the one lifetime rule
 * (and that the memory checkers catch a read past it), da_current between
 * generations, one meaning of side and orphan traces, exits with their
 * places, and what every call does after an error or out of order. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "dumpanalyze.h"
#include "records.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#define VALGRIND_COUNT_ERRORS 0u
#endif

#define PENLIGHT "samples/penlight-x.dump"

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	long n = ftell(fp);
	assert_int_equal(fseek(fp, 0, SEEK_SET), 0);
	char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

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

/* ---- versions and the size checks ------------------------------------- */

struct diags {
	unsigned n, errors;
	uint64_t line;
	char msg[512];
};

static void record_diag(void *data, enum da_severity sev, const char *file, uint64_t line,
                        const char *msg)
{
	(void)file;
	struct diags *g = data;
	g->n++;
	g->errors += sev == DA_ERROR;
	g->line = line;
	snprintf(g->msg, sizeof(g->msg), "%s", msg);
}

static void test_version_macros_and_functions_agree(void **state)
{
	(void)state;
	char want[32];
	snprintf(want, sizeof(want), "%d.%d.%d", DA_VERSION_MAJOR, DA_VERSION_MINOR, DA_VERSION_PATCH);
	assert_string_equal(want, DA_VERSION_STRING);
	assert_string_equal(da_version(), DA_VERSION_STRING);
	assert_string_equal(da_version(), "0.4.0");
	assert_int_equal(DA_VERSION_NUM, 0x000400);
	assert_int_equal(da_version_number(), DA_VERSION_NUM);
	assert_true(DA_AT_LEAST_VERSION(0, 4, 0));
	assert_true(DA_AT_LEAST_VERSION(0, 3, 9));
	assert_false(DA_AT_LEAST_VERSION(0, 4, 1));
	assert_false(DA_AT_LEAST_VERSION(1, 0, 0));
	assert_int_equal(DA_ABI, 2);
	struct da_options o = DA_OPTIONS();
	struct da_sink s = DA_SINK();
	assert_int_equal(o.size, sizeof(struct da_options));
	assert_int_equal(s.size, sizeof(struct da_sink));
}

/* A caller built against a newer header: our struct, then fields we do
 * not know. */
struct newer_options {
	struct da_options o;
	uint64_t later[3];
};

static void test_options_and_sink_sizes_are_checked_at_open(void **state)
{
	(void)state;
	struct diags g = { 0 };
	int err = 0;
	/* no DA_OPTIONS: size 0, refused, and said why */
	struct da_options bare = { .flags = DA_ANSWERS, .diag = record_diag, .diag_data = &g };
	assert_null(da_open_path(PENLIGHT, &bare, &err));
	assert_int_equal(err, DA_EINVAL);
	assert_int_equal(g.errors, 1);
	assert_int_equal(g.line, 0);
	char want[256];
	snprintf(want, sizeof(want), "struct da_options: size 0 is not one any dumpanalyze.h gives "
	         "(%zu here): make it with DA_OPTIONS()", sizeof(struct da_options));
	assert_string_equal(g.msg, want);
	/* one byte short: refused; a size no compiler gave, so its diag is
	 * not trusted either */
	memset(&g, 0, sizeof(g));
	struct da_options o = DA_OPTIONS(.diag = record_diag, .diag_data = &g);
	o.size = sizeof(o) - 1;
	assert_null(da_open_memory("", 0, &o, &err));
	assert_int_equal(err, DA_EINVAL);
	assert_int_equal(g.n, 0);
	o.size = 1u << 20;
	assert_null(da_open_memory("", 0, &o, &err));
	assert_int_equal(err, DA_EINVAL);
	assert_int_equal(g.n, 0);

	/* a sink without DA_SINK */
	struct da_sink sink = { .abort = NULL };
	o = (struct da_options)DA_OPTIONS(.sink = &sink, .diag = record_diag, .diag_data = &g);
	assert_null(da_open_memory("", 0, &o, &err));
	assert_int_equal(err, DA_EINVAL);
	assert_int_equal(g.errors, 1);
	snprintf(want, sizeof(want), "struct da_sink: size 0 is not one any dumpanalyze.h gives "
	         "(%zu here): make it with DA_SINK()", sizeof(struct da_sink));
	assert_string_equal(g.msg, want);

	/* flags this library does not know */
	memset(&g, 0, sizeof(g));
	o = (struct da_options)DA_OPTIONS(.flags = DA_ANSWERS | 1u << 20, .diag = record_diag,
	                                  .diag_data = &g);
	assert_null(da_open_memory("", 0, &o, &err));
	assert_int_equal(err, DA_EINVAL);
	assert_string_equal(g.msg, "options.flags: 0x100000 are no flags of this library (0.4.0)");

	/* a newer caller's larger struct: taken when what we do not know is
	 * zero, refused otherwise */
	struct newer_options big;
	memset(&big, 0, sizeof(big));
	big.o = (struct da_options)DA_OPTIONS(.flags = DA_ANSWERS, .diag = record_diag,
	                                      .diag_data = &g);
	big.o.size = sizeof(big);
	da_dump *d = da_open_path(PENLIGHT, &big.o, &err);
	assert_non_null(d);
	assert_int_equal(err, DA_OK);
	assert_int_equal(da_read(d), DA_OK);
	assert_int_equal(da_abort_reason(d, 0)->count, 21);     /* its flags were taken */
	da_close(d);
	memset(&g, 0, sizeof(g));
	big.later[2] = 1;
	assert_null(da_open_path(PENLIGHT, &big.o, &err));
	assert_int_equal(err, DA_EINVAL);
	snprintf(want, sizeof(want), "struct da_options: a newer dumpanalyze.h (size %zu) sets "
	         "fields this library (0.4.0, size %zu) does not know", sizeof(big),
	         sizeof(struct da_options));
	assert_string_equal(g.msg, want);

	/* a jit/vmdef.lua that is none */
	memset(&g, 0, sizeof(g));
	o = (struct da_options)DA_OPTIONS(.vmdef_path = PENLIGHT, .diag = record_diag,
	                                  .diag_data = &g);
	assert_null(da_open_path(PENLIGHT, &o, &err));
	assert_int_equal(err, DA_EINVAL);
	assert_string_equal(g.msg, PENLIGHT ": no LuaJIT jit/vmdef.lua (unreadable, or no bcnames)");
}

/* ---- lifetimes ------------------------------------------------------- */

/* Every record of a generation, kept by pointer with what it said in its
 * callback, said again at gen_end: the same. */
struct kept {
	struct rec then, now;
	const struct da_trace *traces[512];
	const struct da_abort *aborts[512];
	const struct da_exit *exits[1024];
	unsigned nt, na, nx, gens;
	/* strings, and their bytes, to read after reading ends */
	const char *strings[4096];
	char *copies[4096];
	unsigned ns;
};

static void keep_string(struct kept *k, const char *s)
{
	if (!s || k->ns == 4096)
		return;
	k->strings[k->ns] = s;
	k->copies[k->ns] = strdup(s);
	assert_non_null(k->copies[k->ns]);
	k->ns++;
}

static int kept_trace(void *data, const struct da_trace *t)
{
	struct kept *k = data;
	assert_true(k->nt < 512);
	k->traces[k->nt++] = t;
	assert_non_null(t->text);
	keep_string(k, t->loc);
	keep_string(k, t->file);
	keep_string(k, t->link);
	return rec_trace(&k->then, t);
}

static int kept_abort(void *data, const struct da_abort *a)
{
	struct kept *k = data;
	assert_true(k->na < 512);
	k->aborts[k->na++] = a;
	keep_string(k, a->reason);
	keep_string(k, a->reason_normal);
	for (uint32_t i = 0; i < a->nbytecode; i++)
		keep_string(k, a->bytecode[i]);
	return rec_abort(&k->then, a);
}

static int kept_exit(void *data, const struct da_exit *x)
{
	struct kept *k = data;
	assert_true(k->nx < 1024);
	k->exits[k->nx++] = x;
	keep_string(k, x->trace_file);
	return rec_exit(&k->then, x);
}

static int kept_gen_end(void *data, const struct da_gen *g)
{
	(void)g;
	struct kept *k = data;
	for (unsigned i = 0; i < k->nt; i++)
		rec_trace(&k->now, k->traces[i]);
	for (unsigned i = 0; i < k->na; i++)
		rec_abort(&k->now, k->aborts[i]);
	for (unsigned i = 0; i < k->nx; i++)
		rec_exit(&k->now, k->exits[i]);
	/* the callbacks ran in another order: compare as sets of lines */
	assert_int_equal(k->then.len, k->now.len);
	assert_int_equal(k->then.traces, k->now.traces);
	assert_int_equal(k->then.aborts, k->now.aborts);
	assert_int_equal(k->then.exits, k->now.exits);
	for (char *l = k->now.buf; l && *l;) {
		char *nl = strchr(l, '\n');
		*nl = '\0';
		assert_non_null(strstr(k->then.buf, l));
		*nl = '\n';
		l = nl + 1;
	}
	k->then.len = k->now.len = 0;
	k->nt = k->na = k->nx = 0;
	k->gens++;
	return 0;
}

static void test_every_record_and_its_text_lives_until_gen_end_strings_until_close(void **state)
{
	(void)state;
	static const char *const dumps[] = { "samples/flush.dump", PENLIGHT, "samples/late.dump" };
	static const unsigned gens[] = { 4, 1, 1 };
	for (size_t i = 0; i < 3; i++) {
		struct kept *k = calloc(1, sizeof(*k));
		assert_non_null(k);
		struct da_sink sink = DA_SINK(.trace = kept_trace, .abort = kept_abort,
		                              .exit = kept_exit, .gen_end = kept_gen_end);
		struct da_options o = DA_OPTIONS(.flags = DA_KEEP_TEXT, .sink = &sink, .sink_data = k);
		da_dump *d = da_open_path(dumps[i], &o, NULL);
		assert_int_equal(da_read(d), DA_OK);
		assert_int_equal(k->gens, gens[i]);
		assert_true(k->ns >= 6);     /* late.dump: a trace's 3, three exits' */
		for (unsigned s = 0; s < k->ns; s++) {
			assert_string_equal(k->strings[s], k->copies[s]);
			free(k->copies[s]);
		}
		da_close(d);
		free(k->then.buf);
		free(k->now.buf);
		free(k);
	}
}

/* What a child process that reads past a lifetime ends with: its exit
 * status and what it wrote on stderr. */
struct first {
	const struct da_trace *t;
	const struct da_abort *a;
	const char *file;
};

static int keep_first_trace(void *data, const struct da_trace *t)
{
	struct first *f = data;
	if (!f->t) {
		f->t = t;
		f->file = t->file;
	}
	return 0;
}

static int keep_first_abort(void *data, const struct da_abort *a)
{
	struct first *f = data;
	if (!f->a)
		f->a = a;
	return 0;
}

enum past { TRACE_AFTER_GEN_END, TEXT_AFTER_GEN_END, ABORT_AFTER_CALLBACK, STRING_AFTER_CLOSE };

static int read_past(enum past what, char *err, size_t nerr)
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		struct first f = { 0 };
		struct da_sink sink = DA_SINK(.trace = keep_first_trace, .abort = keep_first_abort);
		struct da_options o = DA_OPTIONS(.flags = DA_KEEP_TEXT, .sink = &sink, .sink_data = &f);
		if (what == ABORT_AFTER_CALLBACK)
			o.flags |= DA_CALLBACK_ONLY;
		da_dump *d = da_open_path(PENLIGHT, &o, NULL);
		if (!d || da_read(d) != DA_OK)
			_exit(3);
		volatile unsigned sum = (unsigned char)f.file[0];   /* a string: still good */
		unsigned errors = VALGRIND_COUNT_ERRORS;
		if (what == TRACE_AFTER_GEN_END)
			sum += f.t->id;
		else if (what == TEXT_AFTER_GEN_END)
			sum += (unsigned char)f.t->text->buf[0];
		else if (what == ABORT_AFTER_CALLBACK)
			sum += f.a->id;
		da_close(d);
		if (what == STRING_AFTER_CLOSE)
			sum += (unsigned char)f.file[0];
		(void)sum;
		/* valgrind reports on its own descriptor: the count says */
		_exit(RUNNING_ON_VALGRIND && VALGRIND_COUNT_ERRORS > errors ? 42 : 0);
	}
	close(fds[1]);
	size_t n = 0;
	ssize_t k;
	while (n + 1 < nerr && (k = read(fds[0], err + n, nerr - 1 - n)) > 0)
		n += (size_t)k;
	err[n] = '\0';
	char drain[4096];
	while (read(fds[0], drain, sizeof(drain)) > 0)
		;
	close(fds[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void test_memory_checkers_catch_a_read_past_the_lifetime(void **state)
{
	(void)state;
	if (!UNDER_ASAN && !RUNNING_ON_VALGRIND) {
		/* Nothing catches it in a plain build: the child ends well. */
		char err[256];
		int status = read_past(TRACE_AFTER_GEN_END, err, sizeof(err));
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
		print_message("plain build: make check-asan and check-valgrind see the reads caught\n");
		return;
	}
	static const enum past cases[] = { TRACE_AFTER_GEN_END, TEXT_AFTER_GEN_END,
		                           ABORT_AFTER_CALLBACK, STRING_AFTER_CLOSE };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static char err[65536];
		int status = read_past(cases[i], err, sizeof(err));
		assert_true(WIFEXITED(status));
		if (UNDER_ASAN) {
			assert_int_not_equal(WEXITSTATUS(status), 0);
			assert_true(strstr(err, "use-after-poison") || strstr(err, "heap-use-after-free"));
		} else {
			/* 42, or valgrind's --error-exitcode */
			assert_int_not_equal(WEXITSTATUS(status), 0);
		}
	}
	if (RUNNING_ON_VALGRIND)
		print_message("(the %zu invalid reads valgrind reported above are this test's)\n",
		              sizeof(cases) / sizeof(cases[0]));
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
	DIR *dir = opendir("samples");
	assert_non_null(dir);
	struct dirent *e;
	unsigned n = 0;
	uint64_t orphans = 0;
	while ((e = readdir(dir))) {
		size_t k = strlen(e->d_name);
		if (!(k > 5 && strcmp(e->d_name + k - 5, ".dump") == 0) &&
		    !(k > 8 && strcmp(e->d_name + k - 8, ".dump.xz") == 0))
			continue;
		char path[512];
		snprintf(path, sizeof(path), "samples/%s", e->d_name);
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
		if (strcmp(e->d_name, "late.dump") == 0) {
			/* its one trace, "start 1/5" of a trace not in the dump */
			assert_int_equal(t->traces, 1);
			assert_int_equal(t->orphans, 1);
			assert_int_equal(t->side, 0);
			assert_int_equal(t->bushes, 1);
		}
		da_close(d);
		n++;
	}
	closedir(dir);
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
	assert_int_equal(da_warnings(d), 0);
	assert_int_equal(da_read(d), DA_OK);   /* and again: the end */
	assert_int_equal(calls, 101);
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
		cmocka_unit_test(test_version_macros_and_functions_agree),
		cmocka_unit_test(test_options_and_sink_sizes_are_checked_at_open),
		cmocka_unit_test(test_every_record_and_its_text_lives_until_gen_end_strings_until_close),
		cmocka_unit_test(test_memory_checkers_catch_a_read_past_the_lifetime),
		cmocka_unit_test(test_current_is_the_generation_being_read_and_zero_between),
		cmocka_unit_test(test_side_and_orphan_traces_counted_apart_on_every_sample),
		cmocka_unit_test(test_exits_carry_their_trace_start_and_where_they_resume),
		cmocka_unit_test(test_after_a_stop_counts_and_answers_say_what_was_read),
		cmocka_unit_test(test_no_bytes_is_one_empty_generation_and_null_handles_answer_empty),
	};
	return cmocka_run_group_tests_name("contract", tests, NULL, NULL);
}
