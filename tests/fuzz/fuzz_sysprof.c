/* fuzz_sysprof.c — libFuzzer target: arbitrary bytes through the sysprof
 * reader (profile/sysprof.h); a profile it reads is then matched to the
 * traces of a real dump of the same kind (samples/sysprof/small.dump,
 * read once) and its failed functions worked out, as the flame graph
 * does, and the findings of that dump charged by its functions through
 * da_use_profile (charged <= interpreted, the findings' sum) and the
 * callee columns made from them (their rows <= charged).  An error must come with a message and an offset inside the
 * input; any crash, leak, sanitizer report or trap below is a bug. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dumpanalyze.h"
#include "analysis/answers.h"
#include "findings/failed.h"
#include "lib/api.h"
#include "profile/sysprof.h"
#include "profile/sysprof_callees.h"
#include "profile/sysprof_join.h"

#define DUMP "samples/sysprof/small.dump"

/* The dump's answers and traces, read once (libFuzzer gives the target
 * no context to keep them in); the dump stays open, as in a run, for the
 * answers' strings are its. */
static da_dump *dump;
static struct answers answers;
static struct sysprof_join join;
static int ready;

static int on_trace(void *data, const struct da_trace *t)
{
	(void)data;
	answers_trace(&answers, t);
	return 0;
}

static int on_abort(void *data, const struct da_abort *a)
{
	(void)data;
	answers_abort(&answers, a);
	return 0;
}

static int on_gen_end(void *data, const struct da_gen *g)
{
	(void)data;
	answers_gen_end(&answers, g);
	sj_gen(&join, g);
	return 0;
}

static void read_dump(void)
{
	static const struct da_sink sink = DA_SINK(.trace = on_trace, .abort = on_abort,
	                                           .gen_end = on_gen_end);
	struct da_options o = DA_OPTIONS(.name = DUMP, .sink = &sink, .flags = DA_NO_THREAD);
	int e;
	sj_init(&join);
	dump = da_open_path(DUMP, &o, &e);
	if (!dump)
		__builtin_trap();       /* run it from the top of the tree */
	while (da_step(dump) > 0)
		;
	if (!join.ntraces)
		__builtin_trap();
	ready = 1;
}

/* The profile through the library, as a file: the findings charged by
 * function. */
static char path[] = "/tmp/fuzz_sysprof.XXXXXX";

static void remove_path(void)
{
	unlink(path);
}

static void findings_of(const uint8_t *data, size_t size, uint64_t interpreted)
{
	static int fd = -1;
	if (fd < 0) {
		if ((fd = mkstemp(path)) < 0)
			__builtin_trap();
		atexit(remove_path);
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		__builtin_trap();
	struct da_options o = DA_OPTIONS(.flags = DA_FINDINGS | DA_NO_THREAD);
	int e;
	da_dump *d = da_open_path(DUMP, &o, &e);
	if (!d || da_use_source_root(d, "samples/lua", DA_SOURCE_BY_NAME) != 0 ||
	    da_use_profile(d, path) != 0 || da_read(d) != 0)
		__builtin_trap();
	const struct da_profile_totals *t = da_profile_totals(d);
	if (!t || !t->functions || t->state[DA_VM_INTERPRETED] != interpreted ||
	    t->charged + t->unsplit > interpreted)
		__builtin_trap();
	uint64_t charged = 0;
	for (size_t i = 0; i < da_findings(d); i++)
		charged += da_finding(d, i)->samples;
	if (charged != t->charged)
		__builtin_trap();
	/* the callee columns, by the findings: each row's samples are
	 * charged ones, so they add up to at most those */
	struct callees c;
	failed_callees_sysprof(&c, api_findings(d), api_sysprof(d));
	uint64_t rows = 0;
	for (size_t i = 0; i < c.n; i++)
		rows += c.rows[i].samples;
	if (rows > t->charged)
		__builtin_trap();
	callees_free(&c);
	da_close(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!ready)
		read_dump();
	struct sysprof p;
	struct sysprof_error e;
	sysprof_init(&p, "fuzz.sysprof");
	int r = sysprof_load_memory(&p, data, size, &e);
	if (r != SYSPROF_OK) {
		if (r != SYSPROF_EFORMAT && r != SYSPROF_EBAD)
			__builtin_trap();
		if (!e.msg[0] || e.offset > size)
			__builtin_trap();
		sysprof_free(&p);
		return 0;
	}
	/* what a profile that reads must hold */
	uint64_t sum = 0, on_records = 0, folded = 0;
	for (int s = 0; s < SP_STATES; s++)
		sum += p.state[s];
	for (size_t i = 0; i < p.ntraces; i++)
		on_records += p.traces[i].samples;
	for (size_t i = 0; i < p.nstacks; i++)
		folded += p.stacks[i].count;
	if (sum != p.samples || on_records + p.trace_unknown != p.state[SP_TRACE] ||
	    folded + p.state[SP_TRACE] != p.samples || p.bytes != size)
		__builtin_trap();
	sj_build(&join, &p);        /* from scratch for each profile */
	if (join.samples + join.samples_apart != p.state[SP_TRACE])
		__builtin_trap();
	size_t n, *rank = sj_ranked_traces(&join, &n);
	free(rank);
	rank = sj_ranked_bushes(&join, &n);
	free(rank);
	/* the flame graph's marks: the functions that hold the dump's
	 * failed lines */
	struct callees c;
	memset(&c, 0, sizeof(c));
	callees_failed_lines(&c, &answers);
	struct sp_holders h;
	sp_holders_build(&h, &c, &p);
	for (size_t i = 0; i < p.nfuncs; i++)
		if (p.funcs[i].frame)
			sp_holder_of(&h, p.funcs[i].frame);
	sp_holders_free(&h);
	callees_free(&c);
	sysprof_functions(&p, &n);
	uint64_t jp[5];
	sysprof_jp_states(&p, jp);
	sysprof_free(&p);
	findings_of(data, size, jp[0]);
	return 0;
}
