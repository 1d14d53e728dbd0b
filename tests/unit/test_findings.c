/* test_findings.c — the findings: identity (normalising, hashing), the
 * kinds' catalogue (rule ids unique with the trace errors' and
 * bytecodes'), ranking, and the public API on real samples: records,
 * costs against the profile, da_use_profile and da_use_source_root in
 * and out of order, a profile that is none. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>
#include "dumpanalyze.h"
#include "findings/findings.h"

static void test_normalise(void **s)
{
	(void)s;
	char out[64];
	const char *in = " \t for  i = 1,\tn do \r";
	size_t n = identity_normalise(in, strlen(in), out);
	assert_string_equal(out, "for i = 1, n do");
	assert_int_equal(n, strlen("for i = 1, n do"));
	n = identity_normalise("a\x01|b", 4, out);
	assert_string_equal(out, "a?|b");
	n = identity_normalise("   ", 3, out);
	assert_int_equal(n, 0);
	assert_string_equal(out, "");
}

static void test_hash(void **s)
{
	(void)s;
	char h[13];
	/* FNV-1a 64, its top 48 bits: of "" 0xcbf29ce484222325, of "a"
	 * 0xaf63dc4c8601ec8c */
	identity_hash("", 0, h);
	assert_string_equal(h, "cbf29ce48422");
	identity_hash("a", 1, h);
	assert_string_equal(h, "af63dc4c8601");
}

/* Run-level kinds have rules of their own, DA0NN, unique with the
 * catalogue's; the catch-all is DA100; every word unique. */
static void test_kinds(void **s)
{
	(void)s;
	size_t nk, ne, nb;
	const struct finding_kind *k = findings_kinds(&nk);
	const struct explain_err *e = explain_errs(&ne);
	const struct explain_rule *b = explain_bc_rules(&nb, NULL);
	assert_int_equal(nk, DA_KIND_COUNT);
	size_t rules = 0;
	for (size_t i = 0; i < nk; i++) {
		assert_int_equal(k[i].kind, (int)i);
		assert_non_null(k[i].title);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(k[i].word, k[j].word);
		if (!k[i].rule.id)
			continue;
		rules++;
		assert_int_equal(strlen(k[i].rule.id), 5);
		assert_memory_equal(k[i].rule.id, "DA0", 3);
		assert_non_null(k[i].rule.why);
		assert_non_null(k[i].rule.advice20);
		for (size_t j = 0; j < nk; j++)
			if (j != i && k[j].rule.id)
				assert_string_not_equal(k[i].rule.id, k[j].rule.id);
		for (size_t j = 0; j < ne; j++)
			assert_string_not_equal(k[i].rule.id, e[j].rule.id);
		for (size_t j = 0; j < nb; j++)
			assert_string_not_equal(k[i].rule.id, b[j].id);
	}
	assert_int_equal(rules, 6);
	assert_string_equal(findings_unknown_rule()->id, "DA100");
	assert_string_equal(findings_kind(DA_KIND_HOT_EXIT)->word, "hot-exit");
}

struct diags { int errors; uint64_t line; char msg[256]; char file[256]; };

static void on_diag(void *data, enum da_severity sev, const char *file, uint64_t line, const char *msg)
{
	struct diags *d = data;
	if (sev == DA_ERROR) {
		d->errors++;
		d->line = line;
		snprintf(d->msg, sizeof(d->msg), "%s", msg);
		snprintf(d->file, sizeof(d->file), "%s", file);
	}
}

static da_dump *open_findings(const char *dump, struct diags *dg)
{
	struct da_options o = DA_OPTIONS(.flags = DA_FINDINGS, .diag = on_diag, .diag_data = dg);
	int err;
	da_dump *d = da_open_path(dump, &o, &err);
	assert_non_null(d);
	return d;
}

/* annotated.dump with its profile and its source: the loop at line 20
 * (20-23 in lua/annotated.lua) charged every interpreted sample. */
static void test_annotated(void **s)
{
	(void)s;
	struct diags dg = { 0 };
	da_dump *d = open_findings("samples/annotated.dump", &dg);
	assert_int_equal(da_findings(d), 0);
	assert_int_equal(da_use_profile(d, "samples/annotated-Gvl.prof"), 0);
	assert_int_equal(da_use_profile(d, "samples/annotated-Gvl.prof"), DA_EINVAL);   /* one */
	assert_int_equal(da_use_source_root(d, "samples/lua", DA_SOURCE_BY_NAME), 0);
	assert_int_equal(da_use_source_root(d, "samples", 7), DA_EINVAL);
	assert_int_equal(da_read(d), 0);
	assert_int_equal(da_use_source_root(d, "samples", 0), DA_EINVAL);           /* too late */
	assert_int_equal(da_findings(d), 4);
	const struct da_finding *f = da_finding(d, 0);
	assert_int_equal(f->rank, 1);
	assert_int_equal(f->kind, DA_KIND_BLACKLISTED_LOOP);
	assert_string_equal(f->kind_word, "blacklisted-loop");
	assert_string_equal(f->file, "annotated.lua");
	assert_int_equal(f->line, 20);
	assert_int_equal(f->end_line, 23);
	assert_int_equal(f->basis, DA_BASIS_SOURCE);
	assert_string_equal(f->cause_file, "annotated.lua");
	assert_int_equal(f->cause_line, 21);
	assert_string_equal(f->reason, "NYI: bytecode FNEW");
	assert_string_equal(f->error, "NYIBC");
	assert_string_equal(f->rule, "DA203");
	assert_int_equal(f->level, DA_LEVEL_COSTLY);
	assert_int_equal(f->attempts, 11);          /* grep -c 'start annotated.lua:20$' */
	assert_int_equal(f->blacklisted_gens, 1);
	assert_int_equal(f->nreasons, 1);
	assert_int_equal(f->reasons[0].count, 11);
	/* the profile: Interpreted 111 (48 + 47 + 11 + 5), GC 67, Compiled 23 */
	const struct da_profile_totals *t = da_profile_totals(d);
	assert_non_null(t);
	assert_int_equal(t->total, 201);
	assert_int_equal(t->state[DA_VM_INTERPRETED], 111);
	assert_int_equal(t->state[DA_VM_GC], 67);
	assert_int_equal(t->state[DA_VM_COMPILED], 23);
	assert_int_equal(f->samples, 111);
	assert_int_equal(f->state_samples[DA_VM_INTERPRETED], 111);
	assert_int_equal(f->state_samples[DA_VM_GC], 67);  /* all at line 21 */
	assert_int_equal(f->state_samples[DA_VM_COMPILED], 4);
	assert_int_equal(t->charged, 111);
	assert_true(f->share > 55.2 && f->share < 55.3);
	assert_string_equal(f->start_text, "for i = 1, n do");
	assert_string_equal(f->at_text, "fs[i % 5 + 1] = function() return i end");
	assert_string_equal(f->identity,
	                    "v1|start|annotated.lua|NYIBC|S:for i = 1, n do#0|A:fs[i % 5 + 1] = function() return i end#0");
	assert_int_equal(strlen(f->id), 12);
	assert_string_equal(f->advice, "annotated.lua:21 creates a closure each time the loop at annotated.lua:20 runs: "
	                               "create it once outside the loop (or pass its upvalues as arguments).");
	uint64_t charged = 0;
	for (size_t i = 0; i < da_findings(d); i++) {
		const struct da_finding *x = da_finding(d, i);
		assert_int_equal(x->rank, i + 1);
		charged += x->samples;
		if (i)
			assert_true(x->samples <= da_finding(d, i - 1)->samples);
	}
	assert_true(charged <= t->state[DA_VM_INTERPRETED]);
	assert_null(da_finding(d, 4));
	assert_int_equal(dg.errors, 0);
	da_close(d);
}

/* shop-regressed.dump with its profile and source: the router's closure
 * (router.lua:40) in the loop of lines 37-43, inside the loop of lines
 * 31-47.  An exit resuming at line 35 (side traces of trace 15, exit 0)
 * and the stitches at line 34 abort on it; the inner loop's 8 attempts
 * end 5 times leaving the loop, 3 times on the closure. */
static void test_exits_and_mixed_reasons(void **s)
{
	(void)s;
	struct diags dg = { 0 };
	da_dump *d = open_findings("samples/shop-regressed.dump", &dg);
	assert_int_equal(da_use_profile(d, "samples/shop-regressed-Gvl.prof"), 0);
	assert_int_equal(da_use_source_root(d, "samples/lua/shop-regressed", DA_SOURCE_BY_NAME), 0);
	assert_int_equal(da_read(d), 0);
	const struct da_finding *x = NULL, *st = NULL, *lp = NULL;
	for (size_t i = 0; i < da_findings(d); i++) {
		const struct da_finding *f = da_finding(d, i);
		if (!f->file || strcmp(f->file, "router.lua") != 0)
			continue;
		if (f->kind == DA_KIND_GIVEN_UP_EXIT && f->line == 35)
			x = f;
		else if (f->kind == DA_KIND_BLACKLISTED_STITCH && f->line == 34)
			st = f;
		else if (f->kind == DA_KIND_ABORTING_LOOP && f->line == 37)
			lp = f;
	}
	assert_non_null(x);
	assert_non_null(st);
	assert_non_null(lp);
	/* the exit: from its line to the end of the loop around it; the
	 * profile's interpreted leaves at router.lua:35 (3), 36 (4), 44 (1) */
	assert_int_equal(x->rank, 1);
	assert_int_equal(x->end_line, 47);
	assert_int_equal(x->basis, DA_BASIS_SOURCE);
	assert_true(x->failed);
	assert_int_equal(x->samples, 8);
	assert_string_equal(x->scope_file, "router.lua");
	assert_int_equal(x->scope_line, 37);
	assert_string_equal(x->scope_word, "loop");
	assert_string_equal(x->advice, "router.lua:40 creates a closure each time the loop at router.lua:37 runs: "
	                               "create it once outside the loop (or pass its upvalues as arguments).");
	assert_int_equal(st->line, 34);
	assert_int_equal(st->end_line, 47);
	assert_int_equal(st->samples, 0);           /* no interpreted leaf at line 34 */
	assert_int_equal(st->scope_line, 37);
	/* the loop: the FNEW decides though fewer attempts ended with it */
	assert_int_equal(lp->end_line, 43);
	assert_int_equal(lp->attempts, 8);
	assert_string_equal(lp->reason, "NYI: bytecode FNEW");
	assert_string_equal(lp->error, "NYIBC");
	assert_int_equal(lp->reason_attempts, 3);
	assert_int_equal(lp->nreasons, 2);
	assert_string_equal(lp->reasons[0].reason, "NYI: bytecode FNEW");
	assert_int_equal(lp->reasons[0].count, 3);
	assert_string_equal(lp->reasons[1].reason, "leaving loop in root trace");
	assert_int_equal(lp->reasons[1].count, 5);
	assert_string_equal(lp->rule, "DA203");
	assert_int_equal(lp->level, DA_LEVEL_COSTLY);
	assert_int_equal(lp->at_line, 42);
	assert_int_equal(lp->cause_line, 40);
	assert_true(lp->failed);
	assert_int_equal(lp->samples, 4);           /* leaves at router.lua:37 */
	assert_int_equal(lp->scope_line, 37);
	/* a finding usually harmless fails nothing and is charged nothing */
	for (size_t i = 0; i < da_findings(d); i++) {
		const struct da_finding *f = da_finding(d, i);
		assert_int_equal(f->failed, f->level != DA_LEVEL_HARMLESS && f->basis != DA_BASIS_NONE &&
		                            f->file != NULL);
		if (!f->failed)
			assert_int_equal(f->samples, 0);
	}
	assert_int_equal(da_profile_totals(d)->charged, 12);
	assert_int_equal(dg.errors, 0);
	da_close(d);
}

/* Profiles that cannot be used, and findings not asked for. */
static void test_profile_errors(void **s)
{
	(void)s;
	struct diags dg = { 0 };
	da_dump *d = open_findings("samples/annotated.dump", &dg);
	errno = 0;
	assert_int_equal(da_use_profile(d, "samples/no-such.prof"), DA_EOPEN);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(dg.errors, 1);
	assert_int_equal(da_use_profile(d, "samples/annotated.dump"), DA_EFORMAT);
	assert_int_equal(dg.errors, 2);
	assert_int_equal(dg.line, 1);
	assert_string_equal(dg.file, "samples/annotated.dump");
	assert_non_null(strstr(dg.msg, "not a line of a -jp profile"));
	assert_true(da_step(d) > 0);
	assert_int_equal(da_use_profile(d, "samples/annotated-Gvl.prof"), DA_EINVAL);
	assert_int_equal(da_read(d), 0);
	assert_null(da_profile_totals(d));
	assert_int_equal(da_finding(d, 0)->samples, 0);
	assert_int_equal(da_finding(d, 0)->costed, 0);
	/* no source root: the trace's lines give the extent */
	assert_int_equal(da_finding(d, 0)->basis, DA_BASIS_TRACE);
	assert_int_equal(da_finding(d, 0)->kind, DA_KIND_BLACKLISTED_START);
	da_close(d);

	struct da_options o = DA_OPTIONS(.flags = DA_ANSWERS);
	int err;
	d = da_open_path("samples/annotated.dump", &o, &err);
	assert_int_equal(da_read(d), 0);
	assert_int_equal(da_findings(d), 0);
	assert_null(da_finding(d, 0));
	assert_null(da_profile_totals(d));
	da_close(d);
	assert_int_equal(da_use_profile(NULL, "x"), DA_EINVAL);
	assert_int_equal(da_findings(NULL), 0);
}

/* Without a profile, the rank is the score: weight x count. */
static void test_rank_without_profile(void **s)
{
	(void)s;
	struct diags dg = { 0 };
	da_dump *d = open_findings("samples/penlight-x.dump", &dg);
	assert_int_equal(da_read(d), 0);
	size_t n = da_findings(d);
	assert_true(n >= 5);
	for (size_t i = 1; i < n; i++)
		assert_true(da_finding(d, i)->score <= da_finding(d, i - 1)->score);
	for (size_t i = 0; i < n; i++) {
		const struct da_finding *f = da_finding(d, i);
		assert_non_null(f->rule);
		assert_non_null(f->identity);
		if (f->same_cause)
			assert_true(f->same_cause < f->rank);
	}
	da_close(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalise),
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_annotated),
		cmocka_unit_test(test_exits_and_mixed_reasons),
		cmocka_unit_test(test_profile_errors),
		cmocka_unit_test(test_rank_without_profile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
