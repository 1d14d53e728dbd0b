/* test_sysprof_cost.c — a sysprof profile in the library: its functions'
 * extents from the source (findings/fnextent.c), the functions that hold
 * failed lines by those extents (profile/sysprof_callees.c), and the
 * findings charged by function (findings/cost.c) through da_use_profile,
 * on the real samples of samples/sysprof/ (their programs in samples/lua/)
 * against the numbers of the stream (second reader: tests/cli/sysprof-read.mjs,
 * "leaf" lines) and the dump. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "dumpanalyze.h"
#include "profile/sysprof.h"
#include "profile/sysprof_callees.h"
#include "source/find.h"
#include "findings/fnextent.h"

static const struct sp_func *func(const struct sysprof *p, const char *file, int32_t line)
{
	for (size_t i = 0; i < p->nfuncs; i++)
		if (p->funcs[i].line == line && strcmp(p->funcs[i].file, file) == 0)
			return &p->funcs[i];
	fail_msg("no function %s:%d", file, line);
	return NULL;
}

static void load(struct sysprof *p, const char *path)
{
	struct sysprof_error e;
	sysprof_init(p, path);
	assert_int_equal(sysprof_load(p, path, &e), SYSPROF_OK);
}

/* The extents from the files under dir (NULL: nowhere to look). */
static void extents(struct sysprof *p, const char *dir)
{
	struct source_finder f;
	struct text_files fs;
	source_finder_empty(&f);
	if (dir)
		source_finder_add(&f, dir, 1);
	text_files_init(&fs, dir ? &f : NULL, NULL);
	fn_extents_sysprof(p, &fs);
	text_files_free(&fs);
	source_finder_free(&f);
}

/* samples/lua/annotated.lua: sum 12-16, closures 18-25 (a closure on 21),
 * caller 27-29, the main chunk its 35 lines. */
static void test_extents(void **s)
{
	(void)s;
	struct sysprof p;
	load(&p, "samples/sysprof/annotated.sysprof.xz");
	extents(&p, NULL);                  /* nowhere to look: nothing known */
	assert_int_equal(func(&p, "annotated.lua", 18)->last, SP_LAST_UNKNOWN);
	extents(&p, "samples/lua");
	assert_int_equal(func(&p, "annotated.lua", 0)->last, 35);
	assert_int_equal(func(&p, "annotated.lua", 12)->last, 16);
	assert_int_equal(func(&p, "annotated.lua", 18)->last, 25);
	assert_int_equal(func(&p, "annotated.lua", 21)->last, 21);
	assert_int_equal(func(&p, "annotated.lua", 27)->last, 29);
	/* the runner is read too (samples/lua/sysprof-run.lua); a builtin never */
	assert_int_not_equal(func(&p, "sysprof-run.lua", 0)->last, SP_LAST_UNKNOWN);
	for (size_t i = 0; i < p.nfuncs; i++)
		if (p.funcs[i].line < 0)
			assert_int_equal(p.funcs[i].last, SP_LAST_UNKNOWN);
	sysprof_free(&p);
}

/* The failed lines of annotated.dump: 21 (FNEW, 36 aborts), 18 (1 abort,
 * "blacklisted": caller's attempt entering closures) and the start at 27
 * LuaJIT gave up on.  By extents 18 is closures' own; by defining lines
 * alone it went to sum (12), the function defined last above it. */
static void test_holders(void **s)
{
	(void)s;
	struct failed_line lines[] = {
		{ "annotated.lua", 13, 18, "blacklisted", 1 },
		{ "annotated.lua", 13, 21, "NYI: bytecode FNEW", 36 },
		{ "annotated.lua", 13, 27, "likely blacklisted", 0 },
	};
	struct callees c = { lines, 3, NULL, 0, 1 };
	struct sysprof p;
	load(&p, "samples/sysprof/annotated.sysprof.xz");
	for (int with = 0; with < 2; with++) {
		if (with)
			extents(&p, "samples/lua");
		struct sp_holders h;
		sp_holders_build(&h, &c, &p);
		/* 21 is closures' (the closure written on it is not) */
		assert_ptr_equal(sp_holder_of(&h, "annotated.lua:18"), &lines[1]);
		assert_null(sp_holder_of(&h, "annotated.lua:21"));
		assert_ptr_equal(sp_holder_of(&h, "annotated.lua:27"), &lines[2]);
		if (with)
			assert_null(sp_holder_of(&h, "annotated.lua:12"));
		else
			assert_ptr_equal(sp_holder_of(&h, "annotated.lua:12"), &lines[0]);
		assert_null(sp_holder_of(&h, "annotated.lua:0"));
		sp_holders_free(&h);
	}
	sysprof_free(&p);
}

struct diags { int errors; char msg[512]; };

static void on_diag(void *data, enum da_severity sev, const char *file, uint64_t line,
                    const char *msg)
{
	(void)file;
	(void)line;
	struct diags *d = data;
	if (sev == DA_ERROR) {
		d->errors++;
		snprintf(d->msg, sizeof(d->msg), "%s", msg);
	}
}

static da_dump *open_with(const char *dump, struct diags *dg)
{
	struct da_options o = DA_OPTIONS(.flags = DA_FINDINGS, .diag = on_diag, .diag_data = dg);
	int err;
	da_dump *d = da_open_path(dump, &o, &err);
	assert_non_null(d);
	assert_int_equal(da_use_source_root(d, "samples/lua", DA_SOURCE_BY_NAME), 0);
	return d;
}

/* The sysprof profile alone charges the findings by function.  Of
 * annotated.sysprof (the second reader: leaf annotated.lua:18 755, :21 32,
 * :27 1, :0 1; LFUNC 789, INTERP 83, FFUNC 0): closures (18-25, blacklisted)
 * takes its own 755, the closure on 21 lies in the loop 20-23 (32), caller
 * (27-29) its 1; the main chunk's is nobody's. */
static void test_charged_by_function(void **s)
{
	(void)s;
	struct diags dg = { 0 };
	da_dump *d = open_with("samples/sysprof/annotated.dump", &dg);
	assert_int_equal(da_use_profile(d, "samples/sysprof/annotated.sysprof.xz"), 0);
	assert_int_equal(da_use_profile(d, "samples/sysprof/phases.sysprof.xz"), DA_EINVAL);
	assert_int_equal(da_read(d), 0);
	const struct da_profile_totals *t = da_profile_totals(d);
	assert_non_null(t);
	assert_string_equal(t->path, "samples/sysprof/annotated.sysprof.xz");
	assert_true(t->functions && t->states && t->stacks && !t->percent);
	assert_int_equal(t->total, 1769);
	assert_int_equal(t->state[DA_VM_INTERPRETED], 83 + 789);
	assert_int_equal(t->charged, 755 + 32 + 1);
	assert_int_equal(t->unsplit, 0);
	static const struct { int32_t line, end; enum da_finding_kind kind; uint64_t samples; } want[] = {
		{ 18, 25, DA_KIND_BLACKLISTED_FUNCTION, 755 },
		{ 20, 23, DA_KIND_BLACKLISTED_LOOP, 32 },
		{ 27, 29, DA_KIND_BLACKLISTED_FUNCTION, 1 },
	};
	for (size_t i = 0; i < 3; i++) {
		const struct da_finding *f = da_finding(d, i);
		assert_int_equal(f->line, want[i].line);
		assert_int_equal(f->end_line, want[i].end);
		assert_int_equal(f->kind, want[i].kind);
		assert_int_equal(f->samples, want[i].samples);
		assert_int_equal(f->basis, DA_BASIS_FUNCTION);
		assert_string_equal(f->basis_word, "function");
		assert_int_equal(f->extent_basis, DA_BASIS_SOURCE);
		assert_string_equal(f->extent_word, "source");
		assert_string_equal(f->profile, "samples/sysprof/annotated.sysprof.xz");
	}
	/* an exit (sum()'s, resuming at line 15 after its loop): its extent
	 * the rest of sum, 15-16, which holds no whole function: nothing
	 * charged by function */
	const struct da_finding *x = da_finding(d, 3);
	assert_int_equal(x->kind, DA_KIND_GIVEN_UP_EXIT);
	assert_int_equal(x->line, 15);
	assert_int_equal(x->end_line, 16);
	assert_int_equal(x->basis, DA_BASIS_FUNCTION);
	assert_int_equal(x->extent_basis, DA_BASIS_SOURCE);
	assert_true(x->failed);
	assert_int_equal(x->samples, 0);
	assert_int_equal(dg.errors, 0);
	da_close(d);
}

/* phases.lua: closures (21-28) holds the failed loop 23-26; its own 105
 * samples cannot be split by line, the closure on 24 (6) is the loop's. */
static void test_unsplit(void **s)
{
	(void)s;
	struct diags dg = { 0 };
	da_dump *d = open_with("samples/sysprof/phases.dump", &dg);
	assert_int_equal(da_use_profile(d, "samples/sysprof/phases.sysprof.xz"), 0);
	assert_int_equal(da_read(d), 0);
	const struct da_profile_totals *t = da_profile_totals(d);
	assert_int_equal(t->charged, 6);
	assert_int_equal(t->unsplit, 105);
	const struct da_finding *f = da_finding(d, 0);
	assert_int_equal(f->line, 23);
	assert_int_equal(f->end_line, 26);
	assert_int_equal(f->samples, 6);
	da_close(d);
}

/* Both kinds: the -jp one (lines) charges; a sysprof stream cut short is
 * refused with its byte. */
static void test_both_and_broken(void **s)
{
	(void)s;
	struct diags dg = { 0 };
	da_dump *d = open_with("samples/sysprof/costly.dump.xz", &dg);
	assert_int_equal(da_use_profile(d, "samples/sysprof/costly.sysprof.xz"), 0);
	assert_int_equal(da_use_profile(d, "samples/sysprof/costly-Gvl.prof"), 0);
	assert_int_equal(da_read(d), 0);
	const struct da_profile_totals *t = da_profile_totals(d);
	assert_string_equal(t->path, "samples/sysprof/costly-Gvl.prof");
	assert_false(t->functions);
	assert_int_equal(t->total, 975);
	assert_int_not_equal(da_finding(d, 0)->basis, DA_BASIS_FUNCTION);
	assert_string_equal(da_finding(d, 0)->profile, "samples/sysprof/costly-Gvl.prof");
	da_close(d);

	d = open_with("samples/sysprof/small.dump", &dg);
	FILE *in = popen("xz -dc samples/sysprof/small.sysprof.xz", "r");
	assert_non_null(in);
	char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf), in);
	pclose(in);
	assert_true(n > 100 && n < sizeof(buf));
	char path[] = "/tmp/test_sysprof_cost.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *out = fdopen(fd, "wb");
	assert_int_equal(fwrite(buf, 1, n - 10, out), n - 10);
	fclose(out);
	assert_int_equal(da_use_profile(d, path), DA_EIO);
	assert_int_equal(dg.errors, 1);
	assert_non_null(strstr(dg.msg, "not a sysprof profile dumpanalyze can trust"));
	assert_non_null(strstr(dg.msg, "byte"));
	unlink(path);
	da_close(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extents),
		cmocka_unit_test(test_holders),
		cmocka_unit_test(test_charged_by_function),
		cmocka_unit_test(test_unsplit),
		cmocka_unit_test(test_both_and_broken),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
